/**
 * .proto texts for the .proto reader's tests: hand-written files that use every part of the
 * language (each compiles with protoc), files protoc refuses (each for one rule), and a generator of
 * random valid files. Where a file imports, the imports are the well-known types and descriptor.proto.
 */
import fc from 'fast-check';

export interface CorpusFile {
  readonly name: string;
  readonly text: string;
  /** False where protobufjs reads the file differently from protoc (see protobufjs-model.ts). */
  readonly protobufjs?: boolean;
}

export const validFiles: readonly CorpusFile[] = [
  { name: 'empty', text: '' },
  { name: 'only a package', text: 'syntax = "proto3";\npackage a.b.c;\n' },
  {
    name: 'proto2, every construct',
    protobufjs: false,
    text: `// A comment before the syntax statement.
/* and a block
   comment */
syntax = "proto2";
package shop.v1;
import "google/protobuf/descriptor.proto";
import public "google/protobuf/timestamp.proto";
option java_package = "com.example" ".shop";
option optimize_for = SPEED;

extend google.protobuf.FieldOptions {
  optional string label = 50001;
  optional Limits limits = 50002;
}
extend google.protobuf.ExtensionRangeOptions { optional string range_label = 50003; }

message Limits { optional int32 max = 1; repeated string tags = 2; optional Limits inner = 3; }

message Order {
  option deprecated = false;
  required int64 id = 1 [(label) = "the id"];
  optional string note = 2 [default = "none", json_name = "remark"];
  repeated int32 codes = 3 [packed = true];
  optional double price = 4 [default = -inf, (limits) = { max: 5 tags: ["a", 'b'] inner { max: 1 } }];
  optional float ratio = 5 [default = nan];
  optional uint64 big = 6 [default = 18446744073709551615];
  optional bytes raw = 7 [default = "\\x00\\377\\n"];
  optional Status status = 8 [default = STATUS_NEW];
  optional group Line = 9 {
    required string sku = 1;
    optional group Detail = 2 { optional int32 qty = 1; }
  }
  oneof payment {
    string card = 10;
    group Cash = 11 { optional int64 cents = 1; }
  }
  map<string, Limits> limits_by_name = 12;
  map<int32, Status> status_by_code = 13;
  optional .google.protobuf.Timestamp at = 14;
  enum Status {
    option allow_alias = true;
    STATUS_NEW = 0;
    STATUS_FRESH = 0;
    STATUS_PAID = 1 [deprecated = true];
    STATUS_VOID = -1;
    reserved 10 to 20, 100 to max;
    reserved "STATUS_OLD";
  }
  message Nested { optional Nested again = 1; optional Order.Status status = 2; }
  extensions 1000 to 1999, 5000 to max [(range_label) = "ext"];
  reserved 500, 600 to 699;
  reserved "legacy", "older";
  extend Order { optional int32 level = 1000; }
  ;
}

extend Order { repeated Order.Nested nested = 1001; optional group Tag = 1002 { optional string v = 1; } }

enum Global { GLOBAL_ZERO = 0; GLOBAL_ONE = 0x1; GLOBAL_OCT = 010; }

service Orders {
  option deprecated = true;
  rpc Get (Order) returns (Order);
  rpc Watch (stream Order.Nested) returns (stream .shop.v1.Order) { option deprecated = true; };
  rpc Put (Limits) returns (Limits) {}
}
`,
  },
  {
    name: 'proto3, scopes and well-known types',
    text: `syntax = "proto3";
package a.b;
import "google/protobuf/any.proto";
import "google/protobuf/duration.proto";
import weak "google/protobuf/empty.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/wrappers.proto";
import "google/protobuf/field_mask.proto";

message Outer {
  message Inner { int32 x = 1; message Deep { string y = 1; } }
  Inner inner = 1;
  Inner.Deep deep = 2;
  .a.b.Outer self = 3;
  b.Outer relative = 4;
  a.b.Outer.Inner qualified = 5;
  optional int32 maybe = 6;
  repeated google.protobuf.Any any = 7;
  google.protobuf.Duration took = 8;
  google.protobuf.Empty nothing = 9;
  google.protobuf.Struct doc = 10;
  google.protobuf.Int64Value wrapped = 11;
  google.protobuf.FieldMask mask = 12;
  map<string, Inner> by_name = 13;
  map<uint64, bytes> blobs = 14;
  map<bool, Kind> kinds = 15;
  oneof choice { string text = 16; Inner.Deep deep_choice = 17; Kind kind = 18; }
  enum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; }
  reserved 100 to 199, 536870911;
  reserved "gone";
}

message Other {
  int32 B = 1;
  message C { B.D x = 1; }
  int32 field_number_max = 536870911;
  int32 below = 18999;
  int32 above = 20000;
}

message B { message D {} }
`,
  },
  {
    name: 'names JavaScript objects hold',
    protobufjs: false,
    text: `syntax = "proto3";
package constructor.prototype;
message __proto__ {
  int32 __proto__ = 1;
  int32 constructor = 2;
  int32 toString = 3;
  int32 hasOwnProperty = 4;
  valueOf value_of = 5;
  map<string, __proto__> prototype = 6;
}
message valueOf { Kind kind = 1; }
enum Kind { __defineGetter__ = 0; isPrototypeOf = 1; }
`,
  },
  {
    name: 'a service of streams',
    text: `syntax = "proto3";
import "google/protobuf/empty.proto";
service Chat {
  rpc Send (Message) returns (google.protobuf.Empty);
  rpc Listen (google.protobuf.Empty) returns (stream Message);
  rpc Talk (stream Message) returns (stream Message);
}
message Message { string text = 1; }
`,
  },
  {
    name: 'keywords as names',
    text: `syntax = "proto3";
message message { int32 syntax = 1; int32 package = 2; int32 import = 3; int32 option = 4; }
message Holder {
  .message message = 1;
  int32 map = 2;
  int32 oneof = 3;
  int32 reserved_ = 4;
  int32 enum = 5;
  int32 stream = 6;
  int32 returns = 7;
  int32 rpc = 8;
  int32 max = 9;
  int32 to = 10;
}
enum service { service_zero = 0; }
`,
  },
];

/** Texts protoc refuses, each for one rule; the reader must refuse each too. */
export const invalidFiles: readonly CorpusFile[] = [
  ['not a .proto file', 'this is not protobuf'],
  ['a missing semicolon', 'syntax = "proto3"; message A { int32 a = 1 }'],
  ['an unclosed message', 'syntax = "proto3"; message A { int32 a = 1;'],
  ['a number starting with 0 and an 8', 'syntax = "proto3"; message A { int32 a = 08; }'],
  ['a number touching a letter', 'syntax = "proto3"; message A { int32 a = 1f; }'],
  ['a string across lines', 'syntax = "proto3"; option java_package = "a\nb";'],
  ['an unknown escape', 'syntax = "proto3"; option java_package = "\\q";'],
  ['an unterminated block comment', 'syntax = "proto3"; /* message A {}'],
  ['a non-ASCII name', 'syntax = "proto3"; message Prä {}'],
  ['a name starting with a digit', 'syntax = "proto3"; message 1A {}'],
  ['a field without a name', 'syntax = "proto3"; message A { int32 = 1; }'],
  ['a negative field number', 'syntax = "proto3"; message A { int32 a = -1; }'],
  ['a field number past int32', 'syntax = "proto3"; message A { int32 a = 2147483648; }'],
  ['a reserved identifier', 'syntax = "proto3"; message A { reserved a; }'],
  ['a float map key', 'syntax = "proto3"; message A { map<float, int32> m = 1; }'],
  ['a map of maps', 'syntax = "proto3"; message A { map<string, map<string, int32>> m = 1; }'],
  ['a repeated map', 'syntax = "proto3"; message A { repeated map<string, int32> m = 1; }'],
  ['a map in a oneof', 'syntax = "proto3"; message A { oneof o { map<string, int32> m = 1; } }'],
  ['a label in a oneof', 'syntax = "proto3"; message A { oneof o { repeated int32 a = 1; } }'],
  ['an empty oneof', 'syntax = "proto3"; message A { oneof o { } }'],
  ['a proto2 field without a label', 'syntax = "proto2"; message A { int32 a = 1; }'],
  ['required in proto3', 'syntax = "proto3"; message A { required int32 a = 1; }'],
  ['a group in proto3', 'syntax = "proto3"; message A { repeated group G = 1 {} }'],
  ['a default in proto3', 'syntax = "proto3"; message A { string s = 1 [default = "x"]; }'],
  ['extension ranges in proto3', 'syntax = "proto3"; message A { extensions 100 to 199; }'],
  ['a lower-case group', 'syntax = "proto2"; message A { optional group g = 1 {} }'],
  ['an enum without values', 'syntax = "proto2"; enum E {}'],
  ['a first enum value that is not zero, in proto3', 'syntax = "proto3"; enum E { A = 1; }'],
  ['two enum values of one number', 'syntax = "proto3"; enum E { A = 0; B = 0; }'],
  ['allow_alias without aliases', 'syntax = "proto3"; enum E { option allow_alias = true; A = 0; B = 1; }'],
  ['allow_alias false', 'syntax = "proto3"; enum E { option allow_alias = false; A = 0; B = 0; }'],
  ['one value name in two enums of a scope', 'syntax = "proto3"; enum E { A = 0; } enum F { A = 0; }'],
  [
    'enum values one without the prefix, in proto3',
    'syntax = "proto3"; enum Color { COLOR_RED = 0; Red = 1; }',
  ],
  ['an enum value past int32', 'syntax = "proto3"; enum E { A = 0; B = 2147483648; }'],
  ['two fields of one number', 'syntax = "proto3"; message A { int32 a = 1; int32 b = 1; }'],
  ['two fields of one name', 'syntax = "proto3"; message A { int32 a = 1; int32 a = 2; }'],
  ['a field named as a nested message', 'syntax = "proto3"; message A { message B {} int32 B = 1; }'],
  ['a field named as a nested enum value', 'syntax = "proto3"; message A { enum E { X = 0; } int32 X = 1; }'],
  ['a oneof named as a field', 'syntax = "proto3"; message A { oneof X { int32 a = 1; } int32 X = 2; }'],
  [
    'a message named as a map entry',
    'syntax = "proto3"; message A { map<string, int32> foo = 1; message FooEntry {} }',
  ],
  [
    'a group named as a field',
    'syntax = "proto2"; message A { optional group G = 1 {} optional int32 g = 2; }',
  ],
  ['field number 0', 'syntax = "proto3"; message A { int32 a = 0; }'],
  ['a field number past 2^29 - 1', 'syntax = "proto3"; message A { int32 a = 536870912; }'],
  ['a field number Protobuf keeps', 'syntax = "proto3"; message A { int32 a = 19500; }'],
  ['a reserved number used', 'syntax = "proto3"; message A { int32 a = 1; reserved 1; }'],
  ['a reserved name used', 'syntax = "proto3"; message A { int32 a = 1; reserved "a"; }'],
  ['overlapping reserved ranges', 'syntax = "proto3"; message A { reserved 1 to 5, 3; }'],
  ['a name reserved twice', 'syntax = "proto3"; message A { reserved "a", "a"; }'],
  ['reserved 0', 'syntax = "proto3"; message A { reserved 0; }'],
  ['an enum value in a reserved range', 'syntax = "proto3"; enum E { A = 0; reserved 0; }'],
  ['an enum reserved range backwards', 'syntax = "proto3"; enum E { A = 0; reserved 3 to 1; }'],
  [
    'an extension range over a field',
    'syntax = "proto2"; message A { extensions 1 to 5; optional int32 a = 3; }',
  ],
  [
    'an extension range over a reserved range',
    'syntax = "proto2"; message A { extensions 1 to 5; reserved 3; }',
  ],
  ['overlapping extension ranges', 'syntax = "proto2"; message A { extensions 1 to 5, 4 to 6; }'],
  ['an extension range backwards', 'syntax = "proto2"; message A { extensions 5 to 1; }'],
  ['an extension number past the maximum', 'syntax = "proto2"; message A { extensions 1 to 536870912; }'],
  [
    'an extension outside the ranges',
    'syntax = "proto2"; message A { extensions 10 to 20; } extend A { optional int32 b = 5; }',
  ],
  [
    'one extension number twice',
    'syntax = "proto2"; message A { extensions 10 to 20; } extend A { optional int32 b = 15; } extend A { optional int32 c = 15; }',
  ],
  [
    'an extension of a message in proto3',
    'syntax = "proto3"; message A {} extend A { string label = 50000; }',
  ],
  ['an extension of an enum', 'syntax = "proto2"; enum E { A = 0; } extend E { optional int32 b = 1; }'],
  [
    'json_name on an extension',
    'syntax = "proto2"; message A { extensions 10 to 20; } extend A { optional int32 b = 15 [json_name = "x"]; }',
  ],
  ['an undefined type', 'syntax = "proto3"; message A { Missing a = 1; }'],
  ['a field for a type', 'syntax = "proto3"; message A { string s = 1; } message B { A.s x = 1; }'],
  ['a name the inner scope settles', 'syntax = "proto3"; package a.b; message b {} message C { b.x y = 1; }'],
  ['a map entry as a type', 'syntax = "proto3"; message A { map<string, int32> foo = 1; A.FooEntry e = 2; }'],
  ['an enum as an rpc type', 'syntax = "proto3"; service S { rpc M (E) returns (E); } enum E { E0 = 0; }'],
  [
    'an rpc defined twice',
    'syntax = "proto3"; message A {} service S { rpc M (A) returns (A); rpc M (A) returns (A); }',
  ],
  ['a service named as a message', 'syntax = "proto3"; message S {} service S {}'],
  ['two packages', 'syntax = "proto3"; package a; package b;'],
  [
    'an import listed twice',
    'syntax = "proto3"; import "google/protobuf/any.proto"; import "google/protobuf/any.proto";',
  ],
  ['an import that is not there', 'syntax = "proto3"; import "nope.proto"; message A {}'],
  ['an unknown syntax', 'syntax = "proto4"; message A {}'],
  ['an edition', 'edition = "2023"; message A {}'],
  ['a statement before the syntax', ';syntax = "proto3";'],
  ['messages nested 32 deep', `syntax = "proto3"; ${'message M { '.repeat(32)}${'} '.repeat(32)}`],
  ['a string default for an int', 'syntax = "proto2"; message A { optional int32 a = 1 [default = "x"]; }'],
  [
    'an int default past int32',
    'syntax = "proto2"; message A { optional int32 a = 1 [default = 2147483648]; }',
  ],
  ['a negative default for a uint', 'syntax = "proto2"; message A { optional uint32 a = 1 [default = -1]; }'],
  ['a number default for a bool', 'syntax = "proto2"; message A { optional bool a = 1 [default = 1]; }'],
  ['a float default for an int64', 'syntax = "proto2"; message A { optional int64 a = 1 [default = 1.5]; }'],
  [
    'an identifier default for a string',
    'syntax = "proto2"; message A { optional string a = 1 [default = x]; }',
  ],
  ['a default for a repeated field', 'syntax = "proto2"; message A { repeated int32 a = 1 [default = 1]; }'],
  ['a default for a message field', 'syntax = "proto2"; message A { optional A a = 1 [default = 1]; }'],
  [
    'an enum default that is no value',
    'syntax = "proto2"; enum E { X = 0; } message A { optional E a = 1 [default = Y]; }',
  ],
  [
    'an enum default that is a number',
    'syntax = "proto2"; enum E { X = 0; } message A { optional E a = 1 [default = 0]; }',
  ],
  [
    'a default set twice',
    'syntax = "proto2"; message A { optional int32 a = 1 [default = 1, default = 2]; }',
  ],
  ['empty field options', 'syntax = "proto3"; message A { int32 a = 1 []; }'],
  ['a trailing comma in field options', 'syntax = "proto3"; message A { int32 a = 1 [deprecated = true,]; }'],
  [
    'field names of one JSON name, in proto3',
    'syntax = "proto3"; message A { int32 foo_bar = 1; int32 fooBar = 2; }',
  ],
  ['a "-" before a string', 'syntax = "proto3"; option java_package = -"x";'],
].map(([name, text]) => ({ name: name as string, text: text as string }));

// ---- Random valid files ----

const scalarNames = ['double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64'];
const moreScalars = ['fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes'];
const allScalars = [...scalarNames, ...moreScalars];
const mapKeys = [
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'bool',
  'string',
];

interface Plan {
  readonly syntax: 'proto2' | 'proto3';
  readonly pkg: string;
  readonly messages: number;
  readonly enums: number;
  /** Per message: fields as [kind, label, pick, style], nested message count, a oneof size, reserved. */
  readonly shapes: readonly {
    fields: readonly [number, number, number, number][];
    nested: number;
    oneof: number;
    reserved: boolean;
  }[];
}

const planArbitrary: fc.Arbitrary<Plan> = fc.record({
  syntax: fc.constantFrom<'proto2' | 'proto3'>('proto2', 'proto3'),
  pkg: fc.constantFrom('', 'gen', 'gen.v1'),
  messages: fc.integer({ min: 1, max: 4 }),
  enums: fc.integer({ min: 0, max: 2 }),
  shapes: fc.array(
    fc.record({
      fields: fc.array(fc.tuple(fc.nat(5), fc.nat(2), fc.nat(100), fc.nat(2)), { maxLength: 7 }),
      nested: fc.integer({ min: 0, max: 2 }),
      oneof: fc.integer({ min: 0, max: 3 }),
      reserved: fc.boolean(),
    }),
    { minLength: 4, maxLength: 4 },
  ),
});

/** A valid .proto file from a plan: every name unique in the file, every reference resolvable. */
function fileOf(plan: Plan): string {
  const { syntax, pkg } = plan;
  const lines = [`syntax = "${syntax}";`];
  if (pkg !== '') lines.push(`package ${pkg};`);
  const enums = Array.from({ length: plan.enums }, (_, i) => `E${i}`);
  const tops = Array.from({ length: plan.messages }, (_, i) => `M${i}`);
  const nested = tops.flatMap((top, i) =>
    Array.from({ length: plan.shapes[i]?.nested ?? 0 }, (_, j) => `${top}.N${j}`),
  );
  const messageRefs = [...tops, ...nested];
  const ref = (name: string, style: number): string =>
    style === 0
      ? `.${pkg === '' ? '' : `${pkg}.`}${name}`
      : style === 1 && pkg !== ''
        ? `${pkg}.${name}`
        : name;
  const label = (pick: number): string =>
    syntax === 'proto2'
      ? (['optional', 'required', 'repeated'][pick] as string)
      : (['', 'optional', 'repeated'][pick] as string);
  const body = (name: string, shape: Plan['shapes'][number], depth: number): string[] => {
    const out: string[] = [];
    let number = 1;
    shape.fields.forEach(([kind, labelPick, pick, style], i) => {
      let type: string;
      if (kind <= 1) type = allScalars[pick % allScalars.length] as string;
      else if (kind === 2 && enums.length > 0) type = ref(enums[pick % enums.length] as string, style);
      else if (kind === 3) type = ref(messageRefs[pick % messageRefs.length] as string, style);
      else if (kind === 4) {
        const value =
          pick % 2 === 0
            ? (allScalars[pick % allScalars.length] as string)
            : ref(tops[pick % tops.length] as string, style);
        out.push(`  map<${mapKeys[pick % mapKeys.length]}, ${value}> m${depth}_${i} = ${number};`);
        number += 1 + (pick % 3);
        return;
      } else type = allScalars[(pick + i) % allScalars.length] as string;
      const written = label(labelPick);
      out.push(`  ${written === '' ? '' : `${written} `}${type} f${depth}_${i} = ${number};`);
      number += 1 + (pick % 3);
    });
    if (shape.oneof > 0) {
      out.push(`  oneof choice_${depth} {`);
      for (let k = 0; k < shape.oneof; k++) {
        out.push(`    ${allScalars[(k * 5) % allScalars.length]} o${depth}_${k} = ${number++};`);
      }
      out.push('  }');
    }
    if (shape.reserved) {
      out.push(`  reserved ${number + 10}, ${number + 20} to ${number + 30};`);
      out.push(`  reserved "old_${name.replaceAll('.', '_')}";`);
    }
    return out;
  };
  tops.forEach((top, i) => {
    const shape = plan.shapes[i] as Plan['shapes'][number];
    lines.push(`message ${top} {`);
    lines.push(...body(top, shape, 0));
    for (let j = 0; j < shape.nested; j++) {
      const inner = plan.shapes[(i + j + 1) % plan.shapes.length] as Plan['shapes'][number];
      lines.push(`  message N${j} {`);
      lines.push(...body(`${top}.N${j}`, { ...inner, nested: 0 }, 1).map((line) => `  ${line}`));
      lines.push('  }');
    }
    lines.push('}');
  });
  for (const name of enums) {
    lines.push(`enum ${name} { ${name}_ZERO = 0; ${name}_ONE = 1; ${name}_TWO = 2; }`);
  }
  return `${lines.join('\n')}\n`;
}

/** `count` random valid files, the same ones for a seed. */
export function generatedFiles(count: number, seed: number): CorpusFile[] {
  return fc.sample(planArbitrary, { numRuns: count, seed }).map((plan, i) => ({
    name: `generated ${i}`,
    text: fileOf(plan),
  }));
}
