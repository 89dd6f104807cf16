/**
 * The value rules for t.either, checked alone (the WIREKIT schema type also runs the Avro and
 * Protobuf rules on the exports, which do not carry the kind yet).
 */
import { describe, expect, test } from 'vitest';
import { wirekitValueFindings } from '../../../../src/boundaries/events/compatibility/wirekit-values.js';
import { type Schema, schemaToJson, t } from '../../../../src/schema/index.js';
import { verdict } from './support.js';

const found = (reader: Schema, writer: Schema) =>
  wirekitValueFindings(reader, writer, 10_000).map((finding) => `${finding.errorType}@${finding.path}`);

const Point = t.object('Point', { x: t.float64(), y: t.float64() });
const Circle = t.object('Circle', { r: t.float64() });

describe('wirekit value rules: t.either', () => {
  test('adding a branch keeps old writers readable; removing one does not', () => {
    const old = t.either([t.string(), t.float64()]);
    const wider = t.either([t.string(), t.float64(), t.bool()]);
    expect(found(wider, old)).toEqual([]);
    expect(found(old, wider)).toEqual(['KIND_CHANGED@$']);
  });

  test('a plain kind becoming a branch of an either is compatible one way only', () => {
    const either = t.either([t.string(), t.uint16()]);
    expect(found(either, t.string())).toEqual([]);
    expect(found(either, t.uint8())).toEqual([]);
    expect(found(t.string(), either)).toEqual(['KIND_CHANGED@$']);
    // A branch that narrows the writer's kind is the branch's own finding.
    expect(found(either, t.uint32())).toEqual(['VALUE_RANGE_NARROWED@$']);
    expect(found(either, t.json())).toEqual(['KIND_CHANGED@$']);
  });

  test('an object is read by whichever object branch reads it', () => {
    const shapes = t.either([Point, Circle]);
    expect(found(shapes, Circle)).toEqual([]);
    expect(found(shapes, t.object('Circle', { r: t.float64(), tag: t.string() }))).toEqual([]);
    expect(found(shapes, t.object('Square', { side: t.float64() }))).toEqual(['KIND_CHANGED@$']);
    // Circle's values go to the Circle branch, whose narrower r is then the finding.
    const narrower = t.either([Point, t.object('Circle', { r: t.float32() })]);
    expect(found(narrower, Circle)).toEqual(['VALUE_RANGE_NARROWED@$.r']);
  });

  test('branches are compared where they sit, inside objects', () => {
    const v1 = t.object('Row', { id: t.either([t.string({ maxLength: 10 }), t.float64()]) });
    const v2 = t.object('Row', { id: t.either([t.string({ maxLength: 5 }), t.float64()]) });
    expect(found(v2, v1)).toEqual(['STRING_NARROWED@$.id']);
    expect(found(v1, v2)).toEqual([]);
  });
});

describe('WIREKIT schemas holding an either: the Avro rules run on their exports too', () => {
  const text = (schema: Schema): string => JSON.stringify(schemaToJson(schema));
  const row = (v: Schema) => t.object('Row', { v });
  const broken = (writer: Schema, reader: Schema) =>
    [
      ...new Set(
        verdict('WIREKIT', text(writer), text(reader)).issues.map((i) => `${i.rules}:${i.errorType}`),
      ),
    ].sort();

  test('a branch added at the end reads old events; one removed breaks the Avro rules and the value rules', () => {
    const old = row(t.either([t.string(), t.float64()]));
    expect(broken(old, row(t.either([t.string(), t.float64(), t.bool()])))).toEqual([]);
    const narrower = broken(row(t.either([t.string(), t.float64(), t.bool()])), old);
    expect(narrower).toContain('avro:MISSING_UNION_BRANCH');
    expect(narrower).toContain('wirekit:KIND_CHANGED');
  });

  test('branches reordered: Avro resolves a union by type, but the Protocol Buffers oneof numbers branches by place', () => {
    // The either's message holds branch i at field i + 1: reordered, field 1 changes type, and an
    // old event's string would be read as an int32. The Avro rules alone would let it pass.
    expect(broken(row(t.either([t.string(), t.int32()])), row(t.either([t.int32(), t.string()])))).toEqual([
      'protobuf:FIELD_SCALAR_KIND_CHANGED',
    ]);
  });
});
