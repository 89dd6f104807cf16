/**
 * Import is the inverse of export: what JSON Schema can say comes back as the schema it was, and
 * export → import → export gives the same document, every kind of the shared fixture included.
 */
import { describe, expect, test } from 'vitest';
import { toJsonSchema } from '../../../src/schema/export/index.js';
import { schemaFromJsonSchema } from '../../../src/schema/import/index.js';
import { type FieldInput, type ObjectSchema, schemaToJson, t } from '../../../src/schema/index.js';
import { EveryKind } from '../../fixtures/every-kind.js';

/** Every kind whose meaning JSON Schema holds whole, recursion, namespaces and field metadata too. */
const Leaf = t.enum('Level', ['low', 'high'], { namespace: 'acme.ops', doc: 'How urgent' });
const Ping = t.object('Ping', { type: t.literal('ping'), at: t.timestamp() });
const Pong = t.object('Pong', { type: t.literal('pong'), delay: t.uint16() });
interface Task {
  title: string;
  subtasks: Task[];
}
const Task: ObjectSchema<Task> = t.object('Task', {
  title: t.string({ minLength: 1, maxLength: 80, pattern: '\\S' }),
  subtasks: t.array(
    t.lazy(() => Task),
    { maxItems: 5 },
  ),
});
const Exact = t.object(
  'Exact',
  {
    flag: t.bool(),
    i8: t.int8(),
    u8: t.uint8(),
    i16: t.int16(),
    u16: t.uint16(),
    i32: t.int32(),
    u32: t.uint32(),
    safe: t.int64({ as: 'number' }),
    count: t.uint64({ as: 'number' }),
    ratio: t.float64(),
    name: t.field(t.string(), { doc: 'Shown to people', default: 'anonymous' }),
    old: t.field(t.optional(t.string()), { deprecated: true }),
    level: Leaf,
    message: t.union('Message', 'type', [Ping, Pong], { doc: 'One of two' }),
    labels: t.map(t.string({ maxLength: 8 }), t.nullable(t.int32())),
    task: Task,
    anything: t.json(),
  },
  { doc: 'Kinds JSON Schema says exactly' },
);

describe('JSON Schema import inverts export', () => {
  test('the kinds JSON Schema says exactly come back as they were', () => {
    const imported = schemaFromJsonSchema(toJsonSchema(Exact));
    expect(schemaToJson(imported)).toEqual(schemaToJson(Exact));
  });

  test('export → import → export is the same document for every kind but bytes', () => {
    // Without annotations bytes are refused (contentEncoding is an annotation that validators do
    // not check, so reading it as bytes would change verdicts); wirekit-annotations.test.ts has
    // the round trip with them.
    const fields: Record<string, FieldInput> = {};
    for (const field of EveryKind.fields) {
      if (field.schema.kind === 'bytes') continue;
      fields[field.name] = t.field(field.schema, {
        id: field.id,
        doc: field.doc,
        default: field.default,
        deprecated: field.deprecated,
      });
    }
    const schema = t.object('EveryKind', fields, { doc: EveryKind.doc });
    const first = toJsonSchema(schema);
    expect(toJsonSchema(schemaFromJsonSchema(first))).toEqual(first);
  });

  test("int64 written as numbers (the int64: 'number' option) is refused: its bounds are past 2^53", () => {
    const document = toJsonSchema(t.object('Big', { n: t.int64() }), { int64: 'number' });
    expect(() => schemaFromJsonSchema(document)).toThrow(/properties\/n: an integer with the bounds/);
  });

  test('without annotations, bytes are refused by name', () => {
    expect(() => schemaFromJsonSchema(toJsonSchema(EveryKind))).toThrow(/"contentEncoding"/);
  });
});
