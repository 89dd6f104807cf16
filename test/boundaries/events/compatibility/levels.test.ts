/**
 * The compatibility levels, one table: each level against histories that are compatible or not
 * with the newest version only, or with an older one too, so that the transitive forms and the
 * direction (BACKWARD: the candidate reads the old data; FORWARD: the old reads the candidate's)
 * each decide some row.
 */
import { describe, expect, test } from 'vitest';
import {
  checkCompatibility,
  compatibilityReport,
  type ParsedSchema,
  parseRegisteredSchema,
} from '../../../../src/boundaries/events/compatibility/index.js';
import type { CompatibilityLevel } from '../../../../src/boundaries/events/registry/api.js';
import { avro, record } from './support.js';

const parse = (schema: unknown): ParsedSchema => parseRegisteredSchema({ schema: avro(schema) });

// The schemas of the histories, named for what they hold.
const id = { name: 'id', type: 'long' };
const v1 = parse(record('User', [id]));
/** v1 plus a field with a default: reads v1 data, and v1 reads its data. */
const withEmail = parse(record('User', [id, { name: 'email', type: 'string', default: '' }]));
/** email without a default: reads data that has it, v1 data does not. */
const emailRequired = parse(record('User', [id, { name: 'email', type: 'string' }]));
/** Drops id: reads every version's data; but a reader that needs id cannot read its data. */
const withoutId = parse(record('User', [{ name: 'email', type: 'string', default: '' }]));

interface History {
  readonly name: string;
  readonly existing: readonly ParsedSchema[];
  readonly candidate: ParsedSchema;
  /** The verdict per level. */
  readonly expected: Readonly<Record<CompatibilityLevel, boolean>>;
}

const histories: History[] = [
  {
    name: 'a field added with a default (compatible every way)',
    existing: [v1],
    candidate: withEmail,
    expected: {
      BACKWARD: true,
      BACKWARD_TRANSITIVE: true,
      FORWARD: true,
      FORWARD_TRANSITIVE: true,
      FULL: true,
      FULL_TRANSITIVE: true,
      NONE: true,
    },
  },
  {
    name: 'a field added without a default (the new schema cannot read old data)',
    existing: [v1],
    candidate: emailRequired,
    expected: {
      BACKWARD: false,
      BACKWARD_TRANSITIVE: false,
      FORWARD: true,
      FORWARD_TRANSITIVE: true,
      FULL: false,
      FULL_TRANSITIVE: false,
      NONE: true,
    },
  },
  {
    name: 'a required field removed (old readers cannot read new data)',
    existing: [v1, withEmail],
    candidate: withoutId,
    expected: {
      BACKWARD: true,
      BACKWARD_TRANSITIVE: true,
      FORWARD: false,
      FORWARD_TRANSITIVE: false,
      FULL: false,
      FULL_TRANSITIVE: false,
      NONE: true,
    },
  },
  {
    name: 'compatible with the newest only (emailRequired reads withEmail data, not v1 data)',
    existing: [v1, withEmail],
    candidate: emailRequired,
    expected: {
      BACKWARD: true,
      BACKWARD_TRANSITIVE: false,
      FORWARD: true,
      FORWARD_TRANSITIVE: true,
      FULL: true,
      FULL_TRANSITIVE: false,
      NONE: true,
    },
  },
  {
    name: 'forward with the newest only (v1 data lacks email, which emailRequired as a reader needs)',
    existing: [emailRequired, withEmail],
    candidate: v1,
    expected: {
      BACKWARD: true,
      BACKWARD_TRANSITIVE: true,
      FORWARD: true,
      FORWARD_TRANSITIVE: false,
      FULL: true,
      FULL_TRANSITIVE: false,
      NONE: true,
    },
  },
  {
    name: 'no existing version',
    existing: [],
    candidate: emailRequired,
    expected: {
      BACKWARD: true,
      BACKWARD_TRANSITIVE: true,
      FORWARD: true,
      FORWARD_TRANSITIVE: true,
      FULL: true,
      FULL_TRANSITIVE: true,
      NONE: true,
    },
  },
];

const rows = histories.flatMap((history) =>
  (Object.entries(history.expected) as [CompatibilityLevel, boolean][]).map(([level, compatible]) => ({
    ...history,
    level,
    compatible,
  })),
);

describe('levels', () => {
  test.each(rows)('$level: $name → $compatible', ({ existing, candidate, level, compatible }) => {
    const result = checkCompatibility(candidate, existing, level);
    expect(result.compatible).toBe(compatible);
    expect(result.messages.length === 0).toBe(compatible);
  });

  test('FULL reports both directions against the version that fails', () => {
    const onlyX = parse(record('User', [{ name: 'x', type: 'int' }]));
    const report = compatibilityReport(emailRequired, [onlyX], 'FULL');
    expect(report.map((r) => r.direction)).toEqual(['BACKWARD', 'FORWARD']);
    expect(report.map((r) => r.issues.map((i) => i.additionalInfo))).toEqual([['id', 'email'], ['x']]);
  });

  test('transitive failures name each failing version, newest first, with Confluent’s trailing lines', () => {
    const result = checkCompatibility(emailRequired, [v1, v1, withEmail], 'BACKWARD_TRANSITIVE', {
      versions: [1, 2, 3],
    });
    expect(result.compatible).toBe(false);
    expect(result.messages.filter((m) => m.startsWith('{oldSchemaVersion'))).toEqual([
      '{oldSchemaVersion: 2}',
      '{oldSchemaVersion: 1}',
    ]);
    expect(result.messages.at(-1)).toBe("{compatibility: 'BACKWARD_TRANSITIVE'}");
    expect(result.messages[0]).toMatch(
      /^\{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'email' at path '\/fields\/1' in the new schema has no default value and is missing in the old schema', additionalInfo:'email'\}$/,
    );
  });

  test('FORWARD words the roles the other way round', () => {
    const result = checkCompatibility(withoutId, [v1], 'FORWARD');
    expect(result.messages[0]).toContain(
      'in the old schema has no default value and is missing in the new schema',
    );
  });

  test('another schema type than an existing version is incompatible at every level but NONE', () => {
    const protobuf = parseRegisteredSchema({
      schemaType: 'PROTOBUF',
      schema: 'syntax = "proto3"; message User { int64 id = 1; }',
    });
    for (const level of ['BACKWARD', 'FORWARD', 'FULL', 'BACKWARD_TRANSITIVE'] as const) {
      const result = checkCompatibility(protobuf, [v1], level);
      expect(result.compatible).toBe(false);
      expect(result.messages[0]).toContain('TYPE_MISMATCH');
    }
    expect(checkCompatibility(protobuf, [v1], 'NONE').compatible).toBe(true);
  });

  test('a ParsedSchema made by hand (no parsed form) is parsed again', () => {
    const byHand: ParsedSchema = { schemaType: 'AVRO', text: v1.text, canonical: v1.canonical };
    expect(checkCompatibility(emailRequired, [byHand], 'BACKWARD').compatible).toBe(false);
    expect(checkCompatibility(withEmail, [byHand], 'BACKWARD').compatible).toBe(true);
  });

  test('an unknown level is a request error', () => {
    expect(() => checkCompatibility(v1, [v1], 'SIDEWAYS' as CompatibilityLevel)).toThrow(
      expect.objectContaining({ code: 'WK_REGISTRY_REQUEST' }),
    );
  });
});
