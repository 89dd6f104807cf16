/**
 * `wirekit inspect --registry` holds a writer schema to the registry's bounds: a registry that was
 * told to keep larger schemas (or another registry altogether) may serve an Avro union of 8,000
 * records or a record of 19,500 fields, and inspect refuses them as the registry would
 * (WK_REGISTRY_SCHEMA_INVALID, past the node limit) at once, where it used to end in "internal
 * error: RangeError" after 12 s, or report a Protobuf field-number error for an Avro record. Within
 * the bounds, the largest such schemas are read, in time in proportion to them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeConfluentFrame } from '../../src/boundaries/events/framing.js';
import { registryClient } from '../../src/boundaries/events/registry/client.js';
import { type RegistryServer, startRegistryServer } from '../../src/boundaries/events/registry/server.js';
import { avroIntRecord, avroRecordUnion } from '../fixtures/avro-texts.js';
import { cli } from '../support/cli.js';

let server: RegistryServer;
let dir: string;
beforeAll(async () => {
  // A registry that keeps schemas past the default bounds, as another deployment might.
  server = await startRegistryServer({
    schemaLimits: { maxSchemaNodes: 1_000_000 },
    maxBodyBytes: 8 * 1024 * 1024,
  });
  dir = await mkdtemp(join(tmpdir(), 'wirekit-inspect-bounds-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Avro's zigzag varint of a small non-negative int. */
function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value * 2;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}

/** Inspects `payload` framed with the id `schema` is registered under; the report and the wall time. */
async function inspect(subject: string, schema: string, payload: number[]) {
  const id = await registryClient({ url: server.url }).register(subject, { schema });
  const path = join(dir, `${subject}.bin`);
  await writeFile(path, writeConfluentFrame(id, new Uint8Array(payload)));
  const started = performance.now();
  const result = await cli(['inspect', '--registry', server.url, path, '--json']);
  return {
    result,
    report: JSON.parse(result.text) as Record<string, unknown>,
    ms: performance.now() - started,
  };
}

describe('past the bounds: refused as the registry refuses', () => {
  test.each([
    [
      'an Avro union of 8,000 records',
      'union-8000',
      avroRecordUnion(8_000),
      [...varint(7_999), ...varint(5)],
    ],
    [
      'an Avro record of 19,500 fields',
      'record-19500',
      avroIntRecord('Wide', 19_500),
      new Array(19_500).fill(0),
    ],
  ])('%s', async (_name, subject, schema, payload) => {
    const { result, report, ms } = await inspect(subject, schema, payload);
    expect(result.code).toBe(1);
    expect(report.error).toEqual({
      code: 'WK_REGISTRY_SCHEMA_INVALID',
      message: expect.stringMatching(/more than 50000 JSON values, past the node limit/),
    });
    expect(report.decoded).toBe(false);
    expect(ms).toBeLessThan(10_000);
  });
});

describe('within the bounds: read', () => {
  test('an Avro union of 7,000 records (49,000 nodes): the last branch is read', {
    timeout: 120_000,
  }, async () => {
    const { result, report, ms } = await inspect('union-7000', avroRecordUnion(7_000), [
      ...varint(6_999),
      ...varint(5),
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(report.value).toEqual({ type: 'R6999', a: 5 });
    expect(ms).toBeLessThan(60_000);
  });

  test('an Avro record of 16,000 fields', { timeout: 120_000 }, async () => {
    const { result, report, ms } = await inspect('record-16000', avroIntRecord('Wide', 16_000), [
      ...varint(7),
      ...new Array(15_999).fill(0),
    ]);
    expect(result.code).toBe(0);
    // Resolution matched fields by searching: 89 s here before.
    expect(ms).toBeLessThan(60_000);
    expect((report.value as Record<string, number>).f0).toBe(7);
    expect((report.value as Record<string, number>).f15999).toBe(0);
  });
});
