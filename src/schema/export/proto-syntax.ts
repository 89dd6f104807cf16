/**
 * Whether toProto prints proto3 or proto2. proto3 is the default; a schema imported from a proto2
 * file can hold what proto3 cannot declare: an enum whose first number is not 0 (proto3's enums
 * start with their default, 0), a `required` field (FieldDef.presence 'explicit') and
 * `[default = …]` (FieldDef.default). proto2 declares all three, and its `optional`, `repeated`,
 * `map` and `oneof` write the bytes proto3's do, so such a schema is printed as proto2 and protoc
 * compiles it to the descriptors of the file it came from. proto2 has no implicit presence (a field
 * left out when it holds 0), so a schema with such a field stays proto3: there a `required` field is
 * written `optional` (the same bytes) and a default is a comment, as before, and an enum that does
 * not start with 0 is refused.
 */
import type { Refuse } from './plan.js';
import type { ProtoEnum, ProtoField, ProtoMessage } from './proto-layout.js';

export type ProtoSyntax = 'proto2' | 'proto3';

/** The syntax of a file declaring `declarations` (the types it imports are declared elsewhere). */
export function protoSyntax(
  declarations: readonly (ProtoMessage | ProtoEnum)[],
  refuse: Refuse,
): ProtoSyntax {
  const enums = declarations.filter((declared): declared is ProtoEnum => 'values' in declared);
  const fields = declarations.flatMap((declared) => ('fields' in declared ? declared.fields : []));
  const offZero = enums.find((declared) => (declared.schema.numbers?.[0] ?? 0) !== 0);
  const proto2Only = fields.some(
    (field) =>
      field.def.presence === 'explicit' || (field.def.default !== undefined && printableDefault(field)),
  );
  const implicit = declarations.find(
    (declared): declared is ProtoMessage =>
      'fields' in declared && declared.fields.some((field) => field.label === 'implicit'),
  );
  if (implicit === undefined && (offZero !== undefined || proto2Only)) return 'proto2';
  if (offZero !== undefined) {
    const field = implicit?.fields.find((candidate) => candidate.label === 'implicit');
    refuse(
      `enum ${offZero.name}: its first value is numbered ${offZero.schema.numbers?.[0]}, which proto3 ` +
        `cannot declare (its enums start with 0, their default), and the file cannot be proto2: field ` +
        `${field?.def.name} of ${implicit?.name} has proto3's implicit presence (left out when it holds ` +
        'its default), which proto2 has not. Make that field optional, or number the enum from 0.',
    );
  }
  return 'proto3';
}

/** Whether proto2 can declare the field's default: a single scalar or enum, not a list, map or message. */
export function printableDefault(field: ProtoField): boolean {
  if (field.label !== 'optional' && field.label !== 'implicit') return false;
  const value = field.value;
  if (value?.is === 'enum') return true;
  if (value?.is !== 'scalar') return false;
  const kind = value.schema.kind;
  return kind !== 'decimal' && kind !== 'json' && kind !== 'literal';
}

/**
 * A proto2 `[default = …]` constant for the field's default (printableDefault): text and bytes as a
 * quoted string whose every octet outside printable ASCII (text as UTF-8), quote and backslash is
 * an octal escape, which protoc reads back as those octets.
 */
export function defaultLiteral(field: ProtoField): string {
  const value = field.def.default;
  const node = field.value;
  if (node?.is === 'enum')
    return node.enum.values[node.enum.schema.members.indexOf(value as string)] as string;
  switch (typeof value) {
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'number':
      if (Number.isNaN(value)) return 'nan';
      if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
      return String(value);
    case 'string':
      return quoted(new TextEncoder().encode(value));
    default:
      return quoted(value as Uint8Array);
  }
}

function quoted(octets: Uint8Array): string {
  let text = '';
  for (const octet of octets) {
    const plain = octet >= 0x20 && octet < 0x7f && octet !== 0x22 && octet !== 0x5c;
    text += plain ? String.fromCharCode(octet) : `\\${octet.toString(8).padStart(3, '0')}`;
  }
  return `"${text}"`;
}
