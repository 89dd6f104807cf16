/**
 * What the catalogs' id-keyed maps cost as the plain objects every wirekit format decodes a
 * string-keyed map to, against the `Map`s Fury gives: building them entry by entry, as a decoder
 * does, and walking them, as the overhead benchmark touches decoded values. V8 keeps keys that look
 * like array indices ("138586341") as dictionary elements, which a `Map` does not pay for; this is
 * the part of Fury's lead on the catalogs that belongs to the value model, not to a format.
 *
 *   npm run build && node build/benchmarks/overhead/maps-vs-objects.js [--count 4] [--rounds 40]
 */

import { Catalog, catalogs, median, timeMs as time } from 'wirekit-ts/lab';
import type { Schema } from 'wirekit-ts/schema';
import { benchArgs } from '../args.js';

const usage = `Usage: node build/benchmarks/overhead/maps-vs-objects.js [--count 4] [--rounds 40]
The catalogs' string-keyed maps built and walked as plain objects and as Maps.`;

const { values } = benchArgs(usage, {
  options: {
    count: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '40' },
  },
});
const rounds = Number(values.rounds);

/** The entries of every value the schema declares a string-keyed map, in the order a decoder meets them. */
function mapEntries(schema: Schema, value: unknown, out: [string, unknown][][]): void {
  switch (schema.kind) {
    case 'map': {
      const entries = Object.entries(value as Record<string, unknown>);
      out.push(entries);
      for (const [, item] of entries) mapEntries(schema.values, item, out);
      return;
    }
    case 'object':
      for (const field of schema.fields) {
        const item = (value as Record<string, unknown>)[field.name];
        if (item !== undefined) mapEntries(field.schema, item, out);
      }
      return;
    case 'array':
      for (const item of value as unknown[]) mapEntries(schema.items, item, out);
      return;
    case 'optional':
    case 'nullable':
      if (value !== undefined && value !== null) mapEntries(schema.inner, value, out);
      return;
    default:
      return;
  }
}

const maps: [string, unknown][][] = [];
for (const catalog of catalogs(Number(values.count), 1)) mapEntries(Catalog, catalog, maps);
const entries = maps.reduce((sum, map) => sum + map.length, 0);

const asObjects = () =>
  maps.map((map) => {
    const out: Record<string, unknown> = {};
    for (const [key, item] of map) out[key] = item;
    return out;
  });
const asMaps = () =>
  maps.map((map) => {
    const out = new Map<string, unknown>();
    for (const [key, item] of map) out.set(key, item);
    return out;
  });
let sink = 0;
const walkObjects = (objects: Record<string, unknown>[]) => {
  for (const object of objects) for (const key in object) sink += object[key] === undefined ? 0 : 1;
};
const walkMaps = (all: Map<string, unknown>[]) => {
  for (const map of all) for (const [key, item] of map) sink += item === undefined ? 0 : key.length;
};

const times = {
  buildObjects: [] as number[],
  buildMaps: [] as number[],
  walkObjects: [] as number[],
  walkMaps: [] as number[],
};
for (let round = 0; round < rounds; round++) {
  let objects: Record<string, unknown>[] = [];
  let built: Map<string, unknown>[] = [];
  const buildObjectsMs = time(() => {
    objects = asObjects();
  });
  const buildMapsMs = time(() => {
    built = asMaps();
  });
  const walkObjectsMs = time(() => walkObjects(objects));
  const walkMapsMs = time(() => walkMaps(built));
  // The first quarter of the rounds warms the JIT up.
  if (round < rounds / 4) continue;
  times.buildObjects.push(buildObjectsMs);
  times.buildMaps.push(buildMapsMs);
  times.walkObjects.push(walkObjectsMs);
  times.walkMaps.push(walkMapsMs);
}
if (sink < 0) throw new Error('unreachable: keeps the walks live');
const ms = (list: number[]) => median(list).toFixed(2);
process.stdout.write(
  `${maps.length} maps, ${entries} entries (medians of ${times.walkMaps.length} rounds, ms):\n` +
    `  build: objects ${ms(times.buildObjects)}, Maps ${ms(times.buildMaps)}\n` +
    `  walk:  objects ${ms(times.walkObjects)}, Maps ${ms(times.walkMaps)}\n`,
);
