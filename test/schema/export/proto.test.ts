import { describe, expect, test } from 'vitest';
import { isWirekitError, type Schema, t } from '../../../src/index.js';
import { toProto } from '../../../src/schema/export/proto.js';
import { Circle, Color, EveryKind, Rect } from '../../fixtures/every-kind.js';

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

describe('toProto: the text', () => {
  const proto = toProto(EveryKind, { package: 'wirekit.test' });

  test('header, package and the Timestamp import', () => {
    expect(proto).toContain('syntax = "proto3";\n');
    expect(proto).toContain('package wirekit.test;\n');
    expect(proto).toContain('import "google/protobuf/timestamp.proto";\n');
  });

  test('a file that imports Timestamp says what protoc needs to find it; one that does not, says nothing', () => {
    const head = proto.slice(0, proto.indexOf('syntax = '));
    expect(head).toContain('libprotobuf-dev');
    expect(head).toContain('-I DIR');
    expect(head).toContain('include/ folder beside its\n// bin/ folder');
    for (const line of head.trimEnd().split('\n'))
      expect(line === '' || line.startsWith('//'), line).toBe(true);
    const plain = toProto(t.object('Plain', { id: t.uint32(), name: t.string() }));
    expect(plain).not.toContain('timestamp.proto');
    expect(plain).not.toContain('libprotobuf-dev');
  });

  test('docs, deprecation, aliases, defaults, literals and representations become comments or options', () => {
    expect(proto).toContain('// A record that uses every schema kind\nmessage EveryKind {');
    expect(proto).toContain(
      '  // aliases: title\n  // default: "anonymous"\n  // Display name\n  string name = 14;',
    );
    expect(proto).toContain('  string legacy = 100 [deprecated = true];');
    expect(proto).toContain('  // version (19) is always "v1": a literal is not stored.\n');
    expect(proto).toContain('  string price = 13; // decimal(12,2) as canonical decimal text');
    expect(proto).toContain('  reserved 50;');
  });

  test('declarations follow namedTypes() order, each generated message after its owner', () => {
    const order = [...proto.matchAll(/^(?:message|enum) (\w+)/gm)].map((match) => match[1]);
    expect(order).toEqual([
      'EveryKind',
      'EveryKind_Matrix_Item',
      'Color',
      'Address',
      'Shape',
      'Circle',
      'Rect',
      'Category',
    ]);
  });

  test('the same schema gives the same text', () => {
    expect(toProto(EveryKind, { package: 'wirekit.test' })).toBe(proto);
  });
});

describe('toProto: refusals', () => {
  const refusal = (schema: Schema, options = {}) => failure(() => toProto(schema, options));

  test('types from two namespaces', () => {
    const A = t.object('A', { x: t.bool() }, { namespace: 'one' });
    const B = t.object('B', { a: A }, { namespace: 'two' });
    const result = refusal(B);
    expect(result.code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(result.message).toContain('two (two.B) and one (one.A)');
    // One shared namespace is the package, unless the option says otherwise.
    const C = t.object('C', { a: A }, { namespace: 'one' });
    expect(toProto(C)).toContain('package one;');
    expect(toProto(C, { package: 'other.pkg' })).toContain('package other.pkg;');
  });

  test('field names that are not identifiers, or clash once case and underscores are ignored', () => {
    const dashed = refusal(t.object('Order', { 'line-items': t.string() }));
    expect(dashed.code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(dashed.message).toContain('Order');
    expect(dashed.message).toContain('"line-items"');
    const clash = refusal(t.object('Order', { line_items: t.string(), lineItems: t.string() }));
    expect(clash.code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(clash.message).toContain('lineItems');
  });

  test('enum members that collide or cannot become identifiers', () => {
    expect(refusal(t.enum('Phase', ['in-progress', 'inProgress'])).code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(refusal(t.enum('Phase', ['a_1', 'a1'])).code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(refusal(t.enum('Phase', ['café'])).code).toBe('WK_EXPORT_UNSUPPORTED');
    const Clash = t.object('COLOR_RED', { color: Color });
    expect(refusal(Clash).code).toBe('WK_EXPORT_UNSUPPORTED');
  });

  test('type names proto reserves, and a root wrapper name that is taken', () => {
    expect(refusal(t.object('string', { x: t.bool() })).code).toBe('WK_EXPORT_UNSUPPORTED');
    const Root = t.object('Root', { x: t.bool() });
    expect(refusal(t.array(Root)).code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(toProto(t.array(Root), { rootName: 'Roots' })).toContain(
      'message Roots {\n  repeated Root value = 1;\n}',
    );
  });

  test('a variant whose oneof field would be named like the oneof itself', () => {
    const Value = t.object('Value', { kind: t.literal('value') });
    expect(refusal(t.union('U', 'kind', [Value, Circle, Rect])).code).toBe('WK_EXPORT_UNSUPPORTED');
  });
});
