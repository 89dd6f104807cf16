/**
 * Each pick says how to apply it, in the boundary's own API. The option names the lines use are
 * tied to the APIs' types here (a renamed option fails type-checking, which vitest runs), and each
 * line is checked to name them with a value the API takes. The cache line explains how its pick
 * differs from the cache's own default (snappy, chosen for latency) with this run's figures.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  type CacheOptions,
  defaultCacheCompression,
  defaultCacheFormat,
} from '../../src/boundaries/cache/index.js';
import type { EventCodecOptions } from '../../src/boundaries/events/index.js';
import type { ClientOptions, ReplyRoute, StreamRoute } from '../../src/boundaries/http/index.js';
import { socketFormats } from '../../src/boundaries/ws/frames.js';
import type { SocketPluginOptions } from '../../src/boundaries/ws/index.js';
import { formatNames } from '../../src/codecs/index.js';
import { recommend } from '../../src/lab/recommend.js';
import type { LabRun } from '../../src/lab/run.js';
import { labTable } from '../../src/lab/table.js';
import type { ObjectSchema, Schema } from '../../src/schema/index.js';

const saved = JSON.parse(
  readFileSync(new URL('../fixtures/lab-run.json', import.meta.url), 'utf8'),
) as LabRun;

// The options the apply lines name, as keys of the real option types: these arrays do not
// type-check if one of them is renamed or removed.
const routeOptions = ['body', 'reply', 'formats'] satisfies (keyof ReplyRoute<Schema, Schema>)[];
const streamOptions = ['stream', 'formats'] satisfies (keyof StreamRoute<undefined, ObjectSchema>)[];
const clientOptions = ['format'] satisfies (keyof ClientOptions)[];
const socketOptions = ['formats'] satisfies (keyof SocketPluginOptions)[];
const cacheOptions = ['schema', 'format', 'compression'] satisfies (keyof CacheOptions)[];
const eventOptions = [
  'schema',
  'format',
  'registry',
  'subject',
] satisfies (keyof EventCodecOptions<Schema>)[];

/** Each option as a line names it: `key:` or shorthand `key,` / `key }`. */
const names = (keys: readonly string[]) => keys.map((key) => new RegExp(`[{,] ${key}[:,} ]`));
const quoted = (line: string) => [...line.matchAll(/'([a-z]+)'/g)].map((m) => m[1]);

describe('bench: each pick says how to apply it', () => {
  const advice = recommend(saved);
  const line = (boundary: string) => advice.find((r) => r.boundary === boundary)?.apply ?? '';

  test('every pick has a line, naming real options with values those options take', () => {
    for (const r of advice) expect(r.apply, r.boundary).toBeTypeOf('string');
    const rpc = line('internal RPC');
    for (const name of [...names(routeOptions), ...names(clientOptions), ...names(socketOptions)])
      expect(rpc).toMatch(name);
    expect(rpc).toContain("formats: ['json', 'avro']");
    expect(rpc).toContain("createClient({ ..., format: 'avro' })");
    expect(line('public API (people read it)')).toContain("formats: ['json']");
    for (const name of names(streamOptions)) expect(line('bulk tabular results')).toMatch(name);
    for (const name of names(eventOptions))
      expect(line('event stream with an evolving schema')).toMatch(name);
    for (const name of names(cacheOptions)) expect(line('cache behind compression')).toMatch(name);
    // Every quoted value is a format, a compression, or a registry subject.
    const known = new Set<string>([...formatNames, 'snappy', 'zstd', 'lz4', 'gzip', 'brotli', 'none']);
    for (const r of advice) {
      for (const value of quoted(r.apply ?? '')) {
        if (value !== undefined && !value.endsWith('value')) expect(known, r.apply).toContain(value);
      }
    }
    // The WebSocket plugin is offered only the formats it speaks.
    for (const r of advice) {
      const ws = /wirekitSockets, \{ formats: \[([^\]]*)\]/.exec(r.apply ?? '')?.[1];
      for (const value of quoted(ws ?? '')) expect(socketFormats as readonly string[]).toContain(value);
    }
  });

  test("the cache pick and the cache's default: the difference is explained with this run's figures", () => {
    expect(defaultCacheFormat.withSchema).toBe('avro');
    expect(defaultCacheCompression).toBe('snappy');
    const pick = recommend(saved).find((r) => r.boundary === 'cache behind compression');
    const [format] = (pick?.format ?? '').split(' + ');
    const cache = pick?.apply ?? '';
    expect(cache).toContain(`createCache({ schema, format: '${format}', compression: 'zstd' })`);
    expect(cache).toMatch(
      /The cache's default is (the same format|avro) \+ snappy, chosen for latency: on these values zstd is -?\d+ % smaller \(\d+ B against \d+ B\) but takes \d+ µs to compress and \d+ µs to decompress against snappy's \d+ µs and \d+ µs\./,
    );
    expect(labTable(saved)).toMatch(/ {6}apply: createCache\(/);
  });
});
