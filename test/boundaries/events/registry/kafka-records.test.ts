/**
 * The Kafka store's messages without a broker: every record kind to Confluent's key and value and
 * back (modes as Confluent's MODE keys), Confluent's other key types skipped, and damaged messages failing with StoreCorruptError.
 */
import { describe, expect, test } from 'vitest';
import { kafkaMessageOf, recordOfMessage } from '../../../../src/boundaries/events/registry/kafka-records.js';
import { StoreCorruptError } from '../../../../src/boundaries/events/registry/record-json.js';
import type { RegistryRecord } from '../../../../src/boundaries/events/registry/store.js';

const message = (key: string | null, value: string | null) => ({
  key: key === null ? null : Buffer.from(key),
  value: value === null ? null : Buffer.from(value),
  offset: '0',
});

const records: RegistryRecord[] = [
  {
    kind: 'schema',
    subject: 'a/b',
    version: 3,
    id: 7,
    schemaType: 'AVRO',
    schema: '"string"',
    references: [],
    deleted: false,
  },
  {
    kind: 'schema',
    subject: 's',
    version: 1,
    id: 2,
    schemaType: 'PROTOBUF',
    schema: 'syntax = "proto3";',
    references: [{ name: 'x.proto', subject: 'x', version: 1 }],
    deleted: true,
  },
  { kind: 'config', subject: null, compatibility: 'FULL' },
  { kind: 'config', subject: 's', compatibility: null },
  { kind: 'purge', subject: 's', version: 1 },
  { kind: 'mode', subject: null, mode: 'READONLY' },
  { kind: 'mode', subject: 's', mode: null },
  { kind: 'ids', highest: 41 },
];

describe('Kafka messages of registry records', () => {
  test.each(records)('%j goes out and comes back the same', (record) => {
    const { key, value } = kafkaMessageOf(record);
    expect(recordOfMessage(message(key, value), 't/0@0')).toEqual(record);
  });

  test("keys are Confluent's, and a purge or a level removed is a tombstone", () => {
    expect(kafkaMessageOf(records[0] as RegistryRecord)).toEqual({
      key: '{"keytype":"SCHEMA","subject":"a/b","version":3,"magic":1}',
      value: '{"subject":"a/b","version":3,"id":7,"schema":"\\"string\\"","deleted":false}',
    });
    expect(kafkaMessageOf(records[2] as RegistryRecord)).toEqual({
      key: '{"keytype":"CONFIG","subject":null,"magic":0}',
      value: '{"compatibilityLevel":"FULL"}',
    });
    expect(kafkaMessageOf(records[4] as RegistryRecord).value).toBeNull();
    expect(kafkaMessageOf(records[5] as RegistryRecord)).toEqual({
      key: '{"keytype":"MODE","subject":null,"magic":0}',
      value: '{"mode":"READONLY"}',
    });
    expect(kafkaMessageOf(records[6] as RegistryRecord).value).toBeNull();
  });

  test("Confluent's other key types are skipped; a config without a level is none", () => {
    expect(recordOfMessage(message('{"keytype":"NOOP","magic":0}', null), 'x')).toBeUndefined();
    // Confluent writes the subject into a mode's value too, and leaves a null subject out of the key.
    expect(
      recordOfMessage(message('{"keytype":"MODE","magic":0}', '{"subject":null,"mode":"READWRITE"}'), 'x'),
    ).toEqual({ kind: 'mode', subject: null, mode: 'READWRITE' });
    expect(recordOfMessage(message('{"keytype":"CONFIG","magic":0}', '{"normalize":true}'), 'x')).toEqual({
      kind: 'config',
      subject: null,
      compatibility: null,
    });
  });

  test.each([
    ['no key', null, '{}'],
    ['a key that is not JSON', 'nope', null],
    ['a key that is an array', '[]', null],
    ['a value that is not JSON', '{"keytype":"SCHEMA","subject":"s","version":1,"magic":1}', '{'],
    [
      'a schema without an id',
      '{"keytype":"SCHEMA","subject":"s","version":1,"magic":1}',
      '{"subject":"s","version":1,"schema":"x"}',
    ],
    ['a tombstone without a version', '{"keytype":"SCHEMA","subject":"s","magic":1}', null],
    ['an unknown level', '{"keytype":"CONFIG","subject":null,"magic":0}', '{"compatibilityLevel":"SOME"}'],
    ['a mode this registry does not hold', '{"keytype":"MODE","subject":"s","magic":0}', '{"mode":"IMPORT"}'],
  ])('%s fails with StoreCorruptError', (_, key, value) => {
    expect(() => recordOfMessage(message(key, value), '_schemas/0@41')).toThrow(StoreCorruptError);
  });
});

describe('the id high-water mark', () => {
  test('has a key of its own that is never a tombstone, and a mark without a value says nothing', () => {
    expect(kafkaMessageOf({ kind: 'ids', highest: 41 })).toEqual({
      key: '{"keytype":"WIREKIT_ID_HIGH_WATER","magic":0}',
      value: '{"highest":41}',
    });
    expect(
      recordOfMessage(message('{"keytype":"WIREKIT_ID_HIGH_WATER","magic":0}', null), 'x'),
    ).toBeUndefined();
    expect(() =>
      recordOfMessage(message('{"keytype":"WIREKIT_ID_HIGH_WATER","magic":0}', '{"highest":0}'), 'x'),
    ).toThrow(StoreCorruptError);
  });
});
