/**
 * protoc and Debian's Python protobuf as the judges of toProto's exports: protoc compiles every
 * exported file and reads the fields, numbers and types wirekit means; EveryKind's values survive
 * Python's encoding with presence and zigzag; the header's advice on finding Timestamp holds; roots,
 * generated messages, map keys, names and reserved numbers come out as protoc reads them. The text
 * and the refusals are in proto.test.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { t } from '../../../src/index.js';
import { toProto } from '../../../src/schema/export/proto.js';
import { Color, EveryKind, Shape } from '../../fixtures/every-kind.js';
import { has, python, withTempDir } from '../../support/tools.js';

/**
 * Summarises a descriptor set: each message's fields as "number [label] type" (type: the scalar
 * name or the full message/enum name), its oneof fields as "number oneof/type", reserved numbers;
 * each enum's values. With a message name and JSON on stdin, also parses that JSON into the
 * message, encodes it, decodes it and gives back the JSON and the bytes in hex.
 */
const describeScript = `
import json, sys
from google.protobuf import descriptor_pb2, json_format, message_factory
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
F = descriptor_pb2.FieldDescriptorProto
out = {'messages': {}, 'enums': {}, 'packages': [f.package for f in fds.file]}
def field(m, f):
    kind = f.type_name or F.Type.Name(f.type)[5:].lower()
    if f.label == F.LABEL_REPEATED: kind = 'repeated ' + kind
    elif f.proto3_optional: kind = 'optional ' + kind
    elif f.HasField('oneof_index'): kind = m.oneof_decl[f.oneof_index].name + '/' + kind
    return '%d %s%s' % (f.number, kind, ' deprecated' if f.options.deprecated else '')
def walk(prefix, messages):
    for m in messages:
        out['messages'][prefix + m.name] = dict([(f.name, field(m, f)) for f in m.field] + [('(reserved)', [r.start for r in m.reserved_range])])
        walk(prefix + m.name + '.', m.nested_type)
for f in fds.file:
    if f.name.startswith('google/'): continue
    prefix = f.package + '.' if f.package else ''
    walk(prefix, f.message_type)
    for e in f.enum_type: out['enums'][prefix + e.name] = [v.name for v in e.value]
if len(sys.argv) > 2:
    cls = message_factory.GetMessages(fds.file)[sys.argv[2]]
    decoded = cls.FromString(json_format.Parse(sys.stdin.read(), cls()).SerializeToString())
    out['json'] = json_format.MessageToDict(decoded, preserving_proto_field_name=True)
    out['hex'] = decoded.SerializeToString().hex()
print(json.dumps(out))
`;

interface Described {
  readonly messages: Record<string, Record<string, string | number[]>>;
  readonly enums: Record<string, string[]>;
  readonly packages: string[];
  readonly json?: unknown;
  readonly hex?: string;
}

/** Compiles `proto` with protoc (which must accept it) and returns the descriptor set's path. */
function compile(dir: string, proto: string): string {
  writeFileSync(join(dir, 'schema.proto'), proto);
  const out = join(dir, 'schema.pb');
  const result = spawnSync(
    'protoc',
    [`--proto_path=${dir}`, '--include_imports', `--descriptor_set_out=${out}`, join(dir, 'schema.proto')],
    { encoding: 'utf8' },
  );
  expect(result.stderr, proto).toBe('');
  expect(result.status).toBe(0);
  return out;
}

const canDescribe = has('protoc') && has('python:google.protobuf');

/** protoc's view of the exported file, and optionally a JSON value round-tripped through `message`. */
function describeProto(proto: string, message?: string, json?: unknown): Described {
  return withTempDir((dir) => {
    const descriptors = compile(dir, proto);
    if (!canDescribe) return { messages: {}, enums: {}, packages: [] };
    const args = ['-c', describeScript, descriptors, ...(message === undefined ? [] : [message])];
    const result = spawnSync(python, args, { input: JSON.stringify(json ?? {}), encoding: 'utf8' });
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as Described;
  });
}

describe.skipIf(!has('protoc'))('toProto: protoc accepts it', () => {
  test('EveryKind: fields, numbers and types as protoc reads them', () => {
    const { messages, enums, packages } = describeProto(toProto(EveryKind, { package: 'wirekit.test' }));
    if (!canDescribe) return;
    expect(packages).toEqual(['google.protobuf', 'wirekit.test']);
    const every = messages['wirekit.test.EveryKind'];
    expect(every).toMatchObject({
      flag: '1 bool',
      i8: '2 sint32',
      u16: '6 uint32',
      i64: '8 sint64',
      u64: '9 uint64',
      f32: '11 float',
      f64: '12 double',
      price: '13 string',
      blob: '15 bytes',
      createdAt: '16 .google.protobuf.Timestamp',
      color: '18 .wirekit.test.Color',
      home: '20 .wirekit.test.Address',
      work: '21 optional .wirekit.test.Address',
      tags: '22 repeated string',
      matrix: '23 repeated .wirekit.test.EveryKind_Matrix_Item',
      scores: '24 repeated .wirekit.test.EveryKind.ScoresEntry',
      byId: '25 repeated .wirekit.test.EveryKind.ByIdEntry',
      nickname: '26 optional string',
      manager: '27 optional string',
      shape: '28 .wirekit.test.Shape',
      shapes: '29 repeated .wirekit.test.Shape',
      extra: '30 string',
      legacy: '100 string deprecated',
      category: '101 .wirekit.test.Category',
      '(reserved)': [50],
    });
    expect(every).not.toHaveProperty('version');
    expect(messages['wirekit.test.EveryKind.ByIdEntry']).toMatchObject({ key: '1 sint32' });
    expect(messages['wirekit.test.EveryKind_Matrix_Item']).toEqual({
      items: '1 repeated sint32',
      '(reserved)': [],
    });
    expect(messages['wirekit.test.Shape']).toEqual({
      circle: '1 value/.wirekit.test.Circle',
      rect: '2 value/.wirekit.test.Rect',
      '(reserved)': [],
    });
    expect(messages['wirekit.test.Circle']).toEqual({ radius: '2 double', '(reserved)': [] });
    expect(messages['wirekit.test.Category']).toMatchObject({
      children: '2 repeated .wirekit.test.Category',
    });
    expect(enums['wirekit.test.Color']).toEqual(['COLOR_RED', 'COLOR_GREEN', 'COLOR_BLUE']);
  });

  test.skipIf(!canDescribe)('EveryKind values survive protobuf encoding, with presence and zigzag', () => {
    const value = {
      i8: -1,
      i64: '-9223372036854775808',
      createdAt: '2024-02-29T12:34:56.789Z',
      color: 'COLOR_GREEN',
      matrix: [{ items: [1, 2] }, {}, { items: [3] }],
      byId: { '-1': { zip: '9' } },
      manager: '',
      shape: { circle: { radius: 2 } },
      shapes: [{ rect: { width: 1 } }, { circle: {} }],
      category: { name: 'root', children: [{ name: 'leaf' }] },
    };
    const { json, hex } = describeProto(toProto(EveryKind), 'EveryKind', value);
    // An empty optional string is still there: proto3 `optional` keeps presence.
    expect(json).toEqual(value);
    // Field 2 (i8) as sint32: -1 zigzags to the single byte 01.
    expect(hex?.startsWith('1001')).toBe(true);
  });

  test("the header's advice holds: protoc finds Timestamp in include/ beside its bin/, or through -I", () => {
    // protoc's own include folder on this machine (Debian: /usr/include, from libprotobuf-dev).
    const protoc = realpathSync(execFileSync('which', ['protoc'], { encoding: 'utf8' }).trim());
    const include = join(dirname(protoc), '..', 'include');
    expect(existsSync(join(include, 'google/protobuf/timestamp.proto')), include).toBe(true);
    withTempDir((dir) => {
      const file = join(dir, 'schema.proto');
      writeFileSync(file, toProto(t.object('Event', { at: t.timestamp() })));
      // The same protoc, moved where no include/ is beside its bin/: the import is not found...
      mkdirSync(join(dir, 'bin'));
      copyFileSync(protoc, join(dir, 'bin', 'protoc'));
      const run = (...args: string[]) =>
        spawnSync(join(dir, 'bin', 'protoc'), [`-I${dir}`, ...args, '--descriptor_set_out=/dev/null', file], {
          encoding: 'utf8',
        });
      const lost = run();
      expect(lost.status).not.toBe(0);
      expect(lost.stderr).toContain('google/protobuf/timestamp.proto: File not found');
      // ...until -I names the folder that holds google/protobuf/timestamp.proto.
      expect(run(`-I${include}`).status).toBe(0);
    });
  });

  test('a union root is its message; other roots are wrapped in rootName', () => {
    expect(toProto(Shape)).not.toContain('message Root');
    const grid = toProto(t.array(t.array(t.int32())), { rootName: 'Grid' });
    expect(grid).toContain('message Grid {\n  repeated Grid_Value_Item value = 1;\n}');
    expect(describeProto(grid).messages).toMatchObject(
      canDescribe ? { Grid_Value_Item: { items: '1 repeated sint32' } } : {},
    );
    const color = describeProto(toProto(Color));
    if (canDescribe) expect(color.messages.Root).toEqual({ value: '1 .Color', '(reserved)': [] });
  });

  test('arrays, maps and presence that proto cannot nest get generated messages', () => {
    const Nest = t.object('Nest', {
      cube: t.array(t.array(t.array(t.int8()))),
      holes: t.array(t.nullable(t.int32())),
      maybeTags: t.optional(t.array(t.string())),
      maybeMap: t.nullable(t.map(t.string(), t.bool())),
      groups: t.map(t.string(), t.array(t.string())),
      deep: t.map(t.uint16(), t.map(t.int64(), t.optional(t.float32()))),
      kinds: t.array(t.literal('k')),
    });
    const { messages } = describeProto(toProto(Nest));
    if (!canDescribe) return;
    expect(messages.Nest).toMatchObject({
      cube: '1 repeated .Nest_Cube_Item',
      holes: '2 repeated .Nest_Holes_Item',
      maybeTags: '3 optional .Nest_MaybeTags_List',
      maybeMap: '4 optional .Nest_MaybeMap_Map',
      groups: '5 repeated .Nest.GroupsEntry',
      deep: '6 repeated .Nest.DeepEntry',
      kinds: '7 repeated string',
    });
    expect(messages.Nest_Cube_Item).toMatchObject({ items: '1 repeated .Nest_Cube_Item_Item' });
    expect(messages.Nest_Cube_Item_Item).toMatchObject({ items: '1 repeated sint32' });
    expect(messages.Nest_Holes_Item).toMatchObject({ value: '1 optional sint32' });
    expect(messages.Nest_MaybeTags_List).toMatchObject({ items: '1 repeated string' });
    expect(messages.Nest_MaybeMap_Map).toMatchObject({
      entries: '1 repeated .Nest_MaybeMap_Map.EntriesEntry',
    });
    expect(messages['Nest.GroupsEntry']).toMatchObject({ value: '2 .Nest_Groups_Value' });
    expect(messages['Nest.DeepEntry']).toMatchObject({ key: '1 uint32', value: '2 .Nest_Deep_Value' });
    expect(messages.Nest_Deep_Value).toMatchObject({ entries: '1 repeated .Nest_Deep_Value.EntriesEntry' });
    expect(messages['Nest_Deep_Value.EntriesEntry']).toMatchObject({
      key: '1 sint64',
      value: '2 .Nest_Deep_Value_Value',
    });
    expect(messages.Nest_Deep_Value_Value).toMatchObject({ value: '1 optional float' });
  });

  test('integer map keys: int8/16/32 to sint32, unsigned to uint32/uint64', () => {
    const Keys = t.object('Keys', {
      a: t.map(t.int8(), t.string()),
      b: t.map(t.uint32(), t.string()),
      c: t.map(t.uint64(), t.string()),
    });
    const proto = toProto(Keys);
    expect(proto).toContain('  map<sint32, string> a = 1;');
    expect(proto).toContain('  map<uint64, string> c = 3;');
    const { messages } = describeProto(proto);
    if (canDescribe) expect(messages['Keys.BEntry']).toMatchObject({ key: '1 uint32' });
  });

  test('a generated name never takes a user type name', () => {
    const Taken = t.object('Nest_Cube_Item', { x: t.bool() });
    const Nest = t.object('Nest', { cube: t.array(t.array(t.int8())), taken: Taken });
    const proto = toProto(Nest);
    expect(proto).toContain('  repeated Nest_Cube_Item2 cube = 1;');
    describeProto(proto);
  });

  test('union variants are named by tag, or by type name where the tag is not an identifier', () => {
    const Open = t.object('Open', { state: t.literal('in-progress') });
    const Done = t.object('DoneState', { state: t.literal('fertig ✓') });
    const State = t.union('State', 'state', [Open, Done]);
    const proto = toProto(t.object('Task', { state: State }));
    expect(proto).toContain('    Open in_progress = 1;\n    DoneState done_state = 2;');
    describeProto(proto);
  });

  test('enum members become PREFIX_UPPER_SNAKE; a package-level google is stepped around', () => {
    const Status = t.enum('HTTPStatus', ['notFound', 'server-error', 'v2'], { namespace: 'acme.google' });
    const proto = toProto(
      t.object('Reply', { status: Status, at: t.timestamp() }, { namespace: 'acme.google' }),
    );
    expect(proto).toContain('package acme.google;');
    expect(proto).toContain(
      '  HTTP_STATUS_NOT_FOUND = 0;\n  HTTP_STATUS_SERVER_ERROR = 1;\n  HTTP_STATUS_V2 = 2;',
    );
    expect(proto).toContain('  .google.protobuf.Timestamp at = 2;');
    describeProto(proto);
  });

  test('reserved numbers are kept', () => {
    const Slim = t.object('Slim', { a: t.string(), b: t.string() }, { reserved: [2, 7] });
    const { messages } = describeProto(toProto(Slim));
    if (canDescribe) expect(messages.Slim).toEqual({ a: '1 string', b: '3 string', '(reserved)': [2, 7] });
  });
});
