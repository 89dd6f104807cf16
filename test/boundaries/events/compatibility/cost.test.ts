/**
 * What parsing and checking a schema costs grows with its size, linearly: for the shapes that cost
 * the product of their sizes before (a Protobuf oneof of thousands of fields took 5 s to parse, an
 * Avro union of 18,000 records 17 s to check, a record of 26,000 fields 1.8 s under FULL), four
 * times the schema takes about four times the CPU, not sixteen (tested at eight times: eight, not 64). The checks run with the node bound
 * raised, so that the rules are measured, not the bound. Pairs of schemas built to make every type
 * meet many types of the other stop at the check's budget instead.
 */
import { describe, expect, test } from 'vitest';
import {
  checkCompatibility,
  compatibilityReport,
  parseRegisteredSchema,
} from '../../../../src/boundaries/events/compatibility/index.js';
import type { SchemaDefinition } from '../../../../src/boundaries/events/registry/api.js';
import { isWirekitError } from '../../../../src/errors/index.js';
import { avroRecordUnion } from '../../../fixtures/avro-texts.js';
import { expectLinearCost } from '../../../support/linear-cost.js';

const unbounded = { maxSchemaNodes: 100_000_000, maxSchemaLength: 100_000_000 };

/** Parses the text twice and checks the two under FULL: what a registration of it costs. */
function check(definition: SchemaDefinition): void {
  const candidate = parseRegisteredSchema(definition, unbounded);
  const existing = parseRegisteredSchema(definition, unbounded);
  expect(checkCompatibility(candidate, [existing], 'FULL').compatible).toBe(true);
}

/** Field numbers past Protobuf's reserved 19000-19999. */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => (i < 18_000 ? i + 1 : i + 2_001));
const proto = (body: string): SchemaDefinition => ({
  schemaType: 'PROTOBUF',
  schema: `syntax = "proto3";\n${body}`,
});
const wirekit = (root: unknown): SchemaDefinition => ({
  schemaType: 'WIREKIT',
  schema: JSON.stringify({ format: 'wirekit-schema', version: 1, root }),
});

describe('eight times the schema, about eight times the time', () => {
  test.each<[string, (n: number) => SchemaDefinition]>([
    [
      'Protobuf: a oneof of n fields',
      (n) =>
        proto(
          `message M { oneof o { ${numbered(n)
            .map((k, i) => `int32 f${i} = ${k};`)
            .join(' ')} } }`,
        ),
    ],
    [
      'Protobuf: a message of n fields and n reserved numbers',
      (n) =>
        proto(
          `message M { ${numbered(n)
            .map((k, i) => `int32 f${i} = ${k * 2};`)
            .join(' ')} reserved ${numbered(n)
            .map((k) => k * 2 + 1)
            .join(', ')}; }`,
        ),
    ],
    [
      'Protobuf: n messages',
      (n) => proto(Array.from({ length: n }, (_, i) => `message M${i} { int32 a = 1; }`).join('\n')),
    ],
    [
      'Protobuf: n oneofs of two fields',
      (n) =>
        proto(
          `message M { ${Array.from({ length: n }, (_, i) => `oneof o${i} { int32 a${i} = ${2 * i + 1}; string b${i} = ${2 * i + 2}; }`).join(' ')} }`,
        ),
    ],
    ['Avro: a union of n records', (n) => ({ schema: avroRecordUnion(n) })],
    [
      'Avro: a record of n fields',
      (n) => ({
        schema: JSON.stringify({
          type: 'record',
          name: 'R',
          fields: Array.from({ length: 2 * n }, (_, i) => ({
            name: `f${i}`,
            type: 'int',
            aliases: [`old${i}`],
          })),
        }),
      }),
    ],
    [
      'Avro: an enum of n symbols',
      (n) => ({
        schema: JSON.stringify({
          type: 'enum',
          name: 'E',
          symbols: Array.from({ length: 4 * n }, (_, i) => `S${i}`),
        }),
      }),
    ],
    [
      'wirekit: an object of n fields',
      (n) =>
        wirekit({
          kind: 'object',
          name: 'R',
          fields: Array.from({ length: n / 2 }, (_, i) => ({ name: `f${i}`, schema: { kind: 'int32' } })),
        }),
    ],
  ])('%s', (_name, make) => {
    expectLinearCost(check, make, 1_000);
  });
});

describe("a check's budget", () => {
  test('a reader record against a writer union of thousands of other records stops at its budget', () => {
    const reader = {
      type: 'record',
      name: 'Reader',
      fields: Array.from({ length: 8_000 }, (_, i) => ({ name: `f${i}`, type: 'int', default: 0 })),
    };
    const writer = Array.from({ length: 4_000 }, (_, i) => ({ type: 'record', name: `W${i}`, fields: [] }));
    const before = process.cpuUsage();
    const issues = compatibilityReport(
      parseRegisteredSchema({ schema: JSON.stringify(reader) }),
      [parseRegisteredSchema({ schema: JSON.stringify(writer) })],
      'BACKWARD',
    ).flatMap((version) => version.issues);
    const used = process.cpuUsage(before);
    expect(issues.map((issue) => issue.errorType)).toEqual(['CHECK_TOO_COSTLY']);
    // 32 million field comparisons without the budget; a few million steps with it.
    expect((used.user + used.system) / 1000).toBeLessThan(5_000);
  });

  test('a default tried against thousands of union branches per item is refused at its budget', () => {
    const branches = Array.from({ length: 3_000 }, (_, i) => ({
      type: 'record',
      name: `R${i}`,
      fields: [{ name: `a${i}`, type: 'int' }],
    }));
    const schema = JSON.stringify({
      type: 'record',
      name: 'Holder',
      fields: [
        {
          name: 'items',
          type: { type: 'array', items: branches },
          // Every item fits the last branch only: 3,000 tries each.
          default: Array.from({ length: 3_000 }, () => ({ a2999: 1 })),
        },
      ],
    });
    let error: unknown;
    try {
      parseRegisteredSchema({ schema });
    } catch (caught) {
      error = caught;
    }
    expect(isWirekitError(error, 'WK_REGISTRY_SCHEMA_INVALID')).toBe(true);
    expect((error as Error).message).toMatch(/defaults/);
  });
});
