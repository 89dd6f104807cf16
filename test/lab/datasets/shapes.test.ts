/**
 * The shapes of issue 35 that the lab lacked: API statuses and an id-keyed catalog, whose schemas
 * are the ones a user gets from `inferSchema` on their JSON, and the field report's 5,000 records
 * × 8 fields. What makes each shape what it is (unicode, entity indices, nullable and optional
 * fields, maps of thousands of ids) is checked here, so a later edit cannot quietly flatten it.
 */
import { describe, expect, test } from 'vitest';
import { createCodec } from '../../../src/codecs/registry.js';
import { inferSchema, t } from '../../../src/index.js';
import {
  type Catalog,
  catalogs,
  type Dataset,
  datasets,
  type Status,
  statuses,
} from '../../../src/lab/datasets/index.js';
import type { Schema } from '../../../src/schema/types.js';

/** Kinds, wrapping and field names, fields sorted and type names left out: the structure alone. */
function structure(schema: Schema): string {
  switch (schema.kind) {
    case 'object':
      return `{${[...schema.fields]
        .sort((a, b) => (a.name < b.name ? -1 : 1))
        .map((field) => `${field.name}: ${structure(field.schema)}`)
        .join(', ')}}`;
    case 'array':
      return `${structure(schema.items)}[]`;
    case 'nullable':
      return `(${structure(schema.inner)} | null)`;
    case 'optional':
      return `optional(${structure(schema.inner)})`;
    case 'map':
      return `map<${structure(schema.keys)}, ${structure(schema.values)}>`;
    case 'int64':
      return `int64:${schema.as}`;
    default:
      return schema.kind;
  }
}

/** What JSON.parse gives a user for the items as JSON: the samples inferSchema sees. */
function asParsedJson(dataset: Dataset, items: unknown[]): unknown[] {
  const json = createCodec('json', { schema: t.array(dataset.schema) });
  return JSON.parse(new TextDecoder().decode(json.encode(items))) as unknown[];
}

describe('the field report shape: records', () => {
  test('5,000 records of 8 fields by default', () => {
    const records = datasets.records as Dataset;
    expect(records.defaultCount).toBe(5_000);
    expect(records.schema.fields).toHaveLength(8);
    const items = records.generate() as Record<string, unknown>[];
    expect(items).toHaveLength(5_000);
    for (const item of items) expect(Object.keys(item)).toHaveLength(8);
  });
});

describe('statuses', () => {
  const items = statuses(1_000, 1);

  test('the schema is what inferSchema makes of the statuses as JSON', () => {
    const dataset = datasets.statuses as Dataset;
    const inferred = inferSchema(asParsedJson(dataset, items), { name: 'Status' });
    expect(structure(inferred)).toBe(structure(dataset.schema));
    expect((datasets['statuses-each'] as Dataset).schema).toBe(dataset.schema);
  });

  test('long unicode text: emoji beyond the BMP, CJK and Hangul, accents', () => {
    const text = items.map((status) => status.text).join('\n');
    expect(text).toMatch(/\p{Extended_Pictographic}/u);
    expect(text).toMatch(/[\u{1F300}-\u{1FAFF}]/u);
    expect(text).toMatch(/\p{Script=Han}/u);
    expect(text).toMatch(/\p{Script=Hangul}/u);
    expect(text).toMatch(/\p{Script=Arabic}/u);
    expect(text).toMatch(/[ñéú]/);
    const longest = Math.max(...items.map((status) => status.text.length));
    expect(longest).toBeGreaterThan(200);
  });

  test('entity indices place each entity in the text, counted in code points', () => {
    let checked = 0;
    const slice = (text: string, [start, end]: number[]) => [...text].slice(start, end).join('');
    for (const status of items.filter((item) => item.retweeted_status === undefined)) {
      const { hashtags, symbols, urls, user_mentions } = status.entities;
      for (const tag of hashtags) expect(slice(status.text, tag.indices)).toBe(`#${tag.text}`);
      for (const symbol of symbols) expect(slice(status.text, symbol.indices)).toBe(`$${symbol.text}`);
      for (const link of urls) expect(slice(status.text, link.indices)).toBe(link.url);
      for (const mention of user_mentions)
        expect(slice(status.text, mention.indices)).toBe(`@${mention.screen_name}`);
      checked += hashtags.length + symbols.length + urls.length + user_mentions.length;
    }
    expect(checked).toBeGreaterThan(1_000);
  });

  test('ids past 32 bits beside their string twins, nullable and optional fields both ways', () => {
    const users = items.map((status) => status.user);
    for (const status of items) expect(status.id_str).toBe(String(status.id));
    expect(items.every((status) => status.id > 2 ** 32 && status.id < 2 ** 53)).toBe(true);
    expect(users.some((user) => user.id < 2 ** 31)).toBe(true);
    expect(users.some((user) => user.id > 2 ** 32)).toBe(true);
    const share = (test: (status: Status) => boolean) => items.filter(test).length / items.length;
    expect(share((s) => s.in_reply_to_status_id === null)).toBeGreaterThan(0.6);
    expect(share((s) => s.in_reply_to_status_id === null)).toBeLessThan(0.95);
    expect(share((s) => s.retweeted_status !== undefined)).toBeGreaterThan(0.15);
    expect(share((s) => s.retweeted_status !== undefined)).toBeLessThan(0.35);
    expect(share((s) => s.entities.media !== undefined)).toBeGreaterThan(0.05);
    expect(share((s) => s.place !== null)).toBeGreaterThan(0.05);
    expect(share((s) => s.user.profile_banner_url === undefined)).toBeGreaterThan(0.2);
  });
});

describe('catalog', () => {
  const items = catalogs(4, 1);

  test('objects keyed by numeric ids, with thousands of keys and small values', () => {
    for (const catalog of items) {
      const events = Object.keys(catalog.events);
      expect(events.length).toBeGreaterThanOrEqual(1_000);
      expect(events.length).toBeLessThanOrEqual(3_000);
      expect(events.every((key) => /^[1-9][0-9]*$/.test(key))).toBe(true);
      expect(Object.keys(catalog.areaNames).length).toBeGreaterThanOrEqual(100);
      for (const [key, event] of Object.entries(catalog.events)) expect(String(event.id)).toBe(key);
    }
    const json = createCodec('json', { schema: (datasets.catalog as Dataset).schema });
    for (const catalog of items) {
      const bytes = json.encode(catalog).length;
      expect(bytes).toBeGreaterThan(300_000);
      expect(bytes).toBeLessThan(1_500_000);
    }
  });

  test('inferSchema gives maps for the id-keyed objects; venue codes stay fields, the one difference', () => {
    const dataset = datasets.catalog as Dataset;
    const inferred = inferSchema(asParsedJson(dataset, items), { name: 'Catalog' });
    if (inferred.kind !== 'object') throw new Error('expected an object');
    const venues = inferred.fields.find((field) => field.name === 'venueNames')?.schema;
    // Few keys that are codes, not integers: no inference can tell them from field names.
    expect(venues?.kind).toBe('object');
    const codes = Object.keys(Object.assign({}, ...items.map((catalog: Catalog) => catalog.venueNames)));
    expect(structure(venues as Schema)).toBe(
      `{${codes
        .sort()
        .map((code) => `${code}: optional(string)`)
        .join(', ')}}`,
    );
    const withVenueMap = t.object('Catalog', {
      ...Object.fromEntries(inferred.fields.map((field) => [field.name, field.schema])),
      venueNames: t.map(t.string(), t.string()),
    });
    expect(structure(withVenueMap)).toBe(structure(dataset.schema));
  });
});
