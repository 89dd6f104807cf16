import { describe, expect, test } from 'vitest';
import { planOf } from '../../../src/codecs/flatbuffers/planner.js';
import { t } from '../../../src/index.js';
import { fbsLayout } from '../../../src/schema/export/flatbuffers-layout.js';

const Circle = t.object('Circle', { kind: t.literal('circle'), r: t.float64() });
const Square = t.object('Square', { kind: t.literal('square'), side: t.float64() });
const Shape = t.union('Shape', 'kind', [Circle, Square]);
const Drawing = t.object('Drawing', {
  title: t.field(t.string(), { id: 1 }),
  version: t.field(t.literal(2), { id: 2 }),
  shape: t.field(Shape, { id: 4 }),
  tags: t.field(t.array(t.optional(t.string())), { id: 5 }),
});

describe('fbsLayout', () => {
  test('slots in number order: placeholders for unused numbers, a type slot before a union value', () => {
    const drawing = fbsLayout(Drawing).root;
    expect(drawing.slots.map((slot) => (slot.is === 'placeholder' ? `_${slot.number}` : slot.is))).toEqual([
      'field',
      '_2',
      '_3',
      'unionType',
      'field',
      'field',
    ]);
    const second = drawing.slots[1];
    expect(second?.is === 'placeholder' && second.literal?.name).toBe('version');
    expect(drawing.members.map((member) => [member.def.name, member.field?.slot])).toEqual([
      ['title', 0],
      ['version', undefined],
      ['shape', 3],
      ['tags', 5],
    ]);
  });

  test('the codec plan takes its slots and generated tables from the layout', () => {
    const layout = fbsLayout(Drawing, { rootName: 'Root' });
    const plan = planOf(Drawing);
    expect(plan.table.slots).toBe(layout.root.slots.length);
    expect(plan.table.fields.map((field) => [field.name, field.slot])).toEqual(
      layout.root.members.flatMap((member) =>
        member.field === undefined ? [] : [[member.def.name, member.field.slot]],
      ),
    );
    const tags = layout.root.members[3]?.field?.value;
    expect(tags?.is === 'vector' && tags.element.is === 'table' && tags.element.table.name).toBe(
      'Drawing_Tags_Item',
    );
    expect(layout.tables.map((table) => table.name)).toEqual([
      'Drawing',
      'Drawing_Tags_Item',
      'Circle',
      'Square',
    ]);
  });

  test('enum base types count the members', () => {
    const many = Array.from({ length: 257 }, (_, i) => `m${i}`);
    expect(
      fbsLayout(t.object('E', { a: t.enum('Few', ['x', 'y']), b: t.enum('Many', many) })).enums.map(
        (e) => e.base,
      ),
    ).toEqual(['ubyte', 'ushort']);
  });
});
