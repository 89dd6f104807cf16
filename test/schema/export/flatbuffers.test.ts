import { describe, expect, test } from 'vitest';
import { isWirekitError, type Schema, t } from '../../../src/index.js';
import { toFlatBuffers } from '../../../src/schema/export/flatbuffers.js';
import { EveryKind, Shape } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';

/** The code of the error `run` throws, or 'no error'; the message too, to check what it names. */
function failure(run: () => unknown): { code: string; message: string } {
  try {
    run();
    return { code: 'no error', message: '' };
  } catch (error) {
    return isWirekitError(error)
      ? { code: error.code, message: error.message }
      : { code: String(error), message: '' };
  }
}

describe('toFlatBuffers: the text', () => {
  const fbs = toFlatBuffers(EveryKind, { namespace: 'wirekit.test' });

  test('namespace, enums and unions before tables, root_type last', () => {
    expect(fbs).toContain('\nnamespace wirekit.test;\n');
    expect(fbs).toContain('/// A primary colour\nenum Color : ubyte { red, green, blue }');
    expect(fbs).toContain('/// A circle or a rectangle\nunion Shape { Circle, Rect }');
    const order = [...fbs.matchAll(/^(enum|union|table|root_type) (\w+)/gm)].map((match) => match[2]);
    expect(order).toEqual([
      'Color',
      'Shape',
      'EveryKind',
      'EveryKind_Matrix_Item',
      'EveryKind_Scores_Entry',
      'EveryKind_ById_Entry',
      'EveryKind_Shapes_Item',
      'Address',
      'Circle',
      'Rect',
      'Category',
      'EveryKind',
    ]);
    expect(fbs.endsWith('root_type EveryKind;\n')).toBe(true);
  });

  test('scalars, representations, placeholders and attributes', () => {
    for (const line of [
      '  i8: byte;',
      '  u64: ulong;',
      '  price: string; // decimal(12,2) as canonical decimal text',
      '  blob: [ubyte];',
      '  createdAt: long; // milliseconds since the Unix epoch',
      '  updatedAt: long; // microseconds since the Unix epoch',
      '  // version (19) is always "v1": a literal is not stored.\n  _reserved_19: ubyte (deprecated);',
      '  work: Address;',
      '  nickname: string;',
      '  matrix: [EveryKind_Matrix_Item];',
      '  shape: Shape;',
      '  shapes: [EveryKind_Shapes_Item];',
      '  _reserved_50: ubyte (deprecated);',
      '  /// Use name instead\n  legacy: string (deprecated);',
      '  // aliases: title\n  // default: "anonymous"\n  /// Display name\n  name: string;',
    ]) {
      expect(fbs).toContain(`\n${line}\n`);
    }
    expect(fbs).toContain('table EveryKind_Scores_Entry {\n  key: string (key);\n  value: double;\n}');
    expect(fbs).toContain('table EveryKind_ById_Entry {\n  key: int (key);\n  value: Address;\n}');
  });

  test('the same schema gives the same text', () => {
    expect(toFlatBuffers(EveryKind, { namespace: 'wirekit.test' })).toBe(fbs);
  });
});

describe('toFlatBuffers: refusals', () => {
  const refusal = (schema: Schema, options = {}) => failure(() => toFlatBuffers(schema, options));

  test('types from two namespaces; one shared namespace is used unless the option says otherwise', () => {
    const A = t.object('A', { x: t.bool() }, { namespace: 'one' });
    expect(refusal(t.object('B', { a: A }, { namespace: 'two' })).code).toBe('WK_EXPORT_UNSUPPORTED');
    const C = t.object('C', { a: A }, { namespace: 'one' });
    expect(toFlatBuffers(C)).toContain('\nnamespace one;\n');
    expect(toFlatBuffers(C, { namespace: 'x.y' })).toContain('\nnamespace x.y;\n');
  });

  test('field names that are not identifiers, or clash with a union type field', () => {
    const dashed = refusal(t.object('Order', { 'line-items': t.string() }));
    expect(dashed.code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(dashed.message).toContain('Order');
    expect(dashed.message).toContain('"line-items"');
    expect(refusal(t.object('Holder', { shape: Shape, shape_type: t.string() })).code).toBe(
      'WK_EXPORT_UNSUPPORTED',
    );
    expect(refusal(t.object('Holder', { shape: Shape, shapeType: t.string() })).code).toBe(
      'WK_EXPORT_UNSUPPORTED',
    );
  });

  test('a run of more than 1000 unused numbers', () => {
    expect(refusal(t.object('Far', { x: t.field(t.bool(), { id: 1002 }) })).code).toBe(
      'WK_EXPORT_UNSUPPORTED',
    );
    expect(refusal(t.object('Far', { x: t.field(t.bool(), { id: 1001 }) })).code).toBe('no error');
  });

  test('enum members that are not identifiers, and names flatc keeps for itself', () => {
    expect(refusal(t.enum('Phase', ['in-progress'])).code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(refusal(t.enum('Phase', ['set', 'null'])).code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(refusal(t.object('int', { x: t.bool() })).code).toBe('WK_EXPORT_UNSUPPORTED');
    const NONE = t.object('NONE', { kind: t.literal('none') });
    expect(refusal(t.union('U', 'kind', [NONE])).code).toBe('WK_EXPORT_UNSUPPORTED');
  });

  test('enums pick the smallest unsigned type that counts their members', () => {
    const many = t.enum(
      'Many',
      Array.from({ length: 300 }, (_, index) => `m${index}`),
    );
    expect(toFlatBuffers(many)).toContain('enum Many : ushort {');
  });
});

describe('FlatBuffers limits the exporter enforces', () => {
  test('a union of more than 255 variants is refused (its type field is one byte)', () => {
    const variants = Array.from({ length: 256 }, (_, i) => t.object(`V${i}`, { kind: t.literal(`v${i}`) }));
    expect(codeOf(() => toFlatBuffers(t.union('Big', 'kind', variants)))).toBe('WK_EXPORT_UNSUPPORTED');
    expect(codeOf(() => toFlatBuffers(t.union('Fits', 'kind', variants.slice(0, 255))))).toBe('no error');
  });
});
