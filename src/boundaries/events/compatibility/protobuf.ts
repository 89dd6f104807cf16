/**
 * Whether a Protobuf reader schema reads what a writer schema writes, by the rules of Confluent's
 * Protobuf checker (its `Difference.Type` names and its paths): a field is its number, so renames
 * are free and fields may come and go, but a number must keep its wire encoding and its meaning.
 * Each rule with the reason for it: docs/compatibility.md.
 */
import { distinct, type Finding } from './issues.js';
import {
  isReservedNumber,
  type ProtoEnum,
  type ProtoField,
  type ProtoFieldType,
  type ProtoFile,
  type ProtoMessage,
} from './protobuf-schema.js';

export { messageIndexesOf, protobufMessageAt } from './protobuf-indexes.js';

export type ProtobufErrorType =
  | 'PACKAGE_CHANGED'
  | 'MESSAGE_REMOVED'
  | 'FIELD_KIND_CHANGED'
  | 'FIELD_SCALAR_KIND_CHANGED'
  | 'FIELD_NAMED_TYPE_CHANGED'
  | 'FIELD_NUMERIC_LABEL_CHANGED'
  | 'REQUIRED_FIELD_ADDED'
  | 'REQUIRED_FIELD_REMOVED'
  | 'ONEOF_FIELD_REMOVED'
  | 'MULTIPLE_FIELDS_MOVED_TO_ONEOF'
  | 'FIELD_MOVED_TO_EXISTING_ONEOF'
  | 'RESERVED_NUMBER_REUSED'
  | 'RESERVED_NAME_REUSED';

/**
 * Why `reader` cannot read what `writer` writes; empty when it can. `newer` names the side that is
 * the newer version, for the reserved rules.
 */
export function protobufReadFindings(
  reader: ProtoFile,
  writer: ProtoFile,
  newer: 'reader' | 'writer',
): Finding[] {
  const checker = new ProtobufChecker(newer);
  const findings: Finding[] = [];
  if (reader.package !== writer.package) {
    findings.push(
      finding(
        'PACKAGE_CHANGED',
        '#/',
        `expected: ${writer.package || '(none)'}, found: ${reader.package || '(none)'}`,
        (r, w) =>
          `The package of the ${r} schema (${reader.package || 'none'}) differs from the package of the ${w} schema (${writer.package || 'none'})`,
      ),
    );
  }
  findings.push(...checker.level(reader.messages, writer.messages, reader.enums, writer.enums, '#'));
  return distinct(findings);
}

function finding(
  errorType: ProtobufErrorType,
  path: string,
  additionalInfo: string | undefined,
  text: (reader: string, writer: string, path: string) => string,
): Finding {
  return {
    errorType,
    path,
    ...(additionalInfo === undefined ? {} : { additionalInfo }),
    describe: (roles, at) => text(roles.reader, roles.writer, at),
  };
}

/** Scalar types by how they are read; an enum reads as a varint. */
const encodingGroups: ReadonlyMap<string, string> = new Map([
  ...['int32', 'int64', 'uint32', 'uint64', 'bool'].map((scalar) => [scalar, 'varint'] as const),
  ...['sint32', 'sint64'].map((scalar) => [scalar, 'zigzag'] as const),
  ...['fixed32', 'sfixed32'].map((scalar) => [scalar, 'fixed32'] as const),
  ...['fixed64', 'sfixed64'].map((scalar) => [scalar, 'fixed64'] as const),
  ['float', 'float'],
  ['double', 'double'],
  ['string', 'length-delimited'],
  ['bytes', 'length-delimited'],
]);

function groupOf(type: ProtoFieldType): string {
  return type.kind === 'enum'
    ? 'varint'
    : type.kind === 'scalar'
      ? (encodingGroups.get(type.scalar) ?? type.scalar)
      : type.kind;
}

/** A field's kind as FIELD_KIND_CHANGED compares it. */
function kindOf(type: ProtoFieldType): string {
  return type.kind === 'enum' ? 'scalar' : type.kind;
}

function typeText(type: ProtoFieldType): string {
  switch (type.kind) {
    case 'scalar':
      return type.scalar;
    case 'map':
      return `map<${typeText(type.key)}, ${typeText(type.value)}>`;
    case 'group':
      return `group ${type.type.localName}`;
    default:
      return type.type.localName;
  }
}

class ProtobufChecker {
  /** Pairs of message bodies compared (or being compared) outside the walk of the files' own types. */
  private readonly compared = new Set<string>();

  constructor(private readonly newer: 'reader' | 'writer') {}

  /** The messages and enums declared at one level of both files, matched by name. */
  level(
    readerMessages: readonly ProtoMessage[],
    writerMessages: readonly ProtoMessage[],
    readerEnums: readonly ProtoEnum[],
    writerEnums: readonly ProtoEnum[],
    path: string,
  ): Finding[] {
    const findings: Finding[] = [];
    const readerByName = new Map(readerMessages.map((message) => [message.name, message]));
    for (const message of writerMessages) {
      const where = `${path}/${message.name}`;
      const counterpart = readerByName.get(message.name);
      if (counterpart === undefined) {
        findings.push(
          finding(
            'MESSAGE_REMOVED',
            where,
            undefined,
            (r, w, at) => `The ${r} schema is missing the message at path '${at}' of the ${w} schema`,
          ),
        );
        continue;
      }
      findings.push(...this.message(counterpart, message, where));
      findings.push(
        ...this.level(counterpart.messages, message.messages, counterpart.enums, message.enums, where),
      );
    }
    const readerEnumsByName = new Map(readerEnums.map((enumeration) => [enumeration.name, enumeration]));
    for (const enumeration of writerEnums) {
      const counterpart = readerEnumsByName.get(enumeration.name);
      if (counterpart !== undefined)
        findings.push(...this.enumeration(counterpart, enumeration, `${path}/${enumeration.name}`));
    }
    return findings;
  }

  private message(reader: ProtoMessage, writer: ProtoMessage, path: string): Finding[] {
    const findings = [...this.oneofs(reader, writer, path), ...this.reserved(reader, writer, path)];
    const readerByNumber = new Map(reader.fields.map((field) => [field.number, field]));
    const writerByNumber = new Map(writer.fields.map((field) => [field.number, field]));
    for (const field of writer.fields) {
      const where = `${path}/${field.number}`;
      const counterpart = readerByNumber.get(field.number);
      if (counterpart !== undefined) findings.push(...this.field(counterpart, field, where));
      else if (field.label === 'required') {
        findings.push(
          finding(
            'REQUIRED_FIELD_REMOVED',
            where,
            field.name,
            (r, w, at) => `The ${r} schema is missing the required field at path '${at}' of the ${w} schema`,
          ),
        );
      }
    }
    for (const field of reader.fields) {
      if (field.label === 'required' && writerByNumber.get(field.number)?.label !== 'required') {
        findings.push(
          finding(
            'REQUIRED_FIELD_ADDED',
            `${path}/${field.number}`,
            field.name,
            (r, w, at) =>
              `The field at path '${at}' is required in the ${r} schema but not in the ${w} schema`,
          ),
        );
      }
    }
    return findings;
  }

  private field(reader: ProtoField, writer: ProtoField, path: string): Finding[] {
    const findings = this.types(reader.type, writer.type, path);
    const numeric =
      reader.type.kind === 'enum' ||
      (reader.type.kind === 'scalar' && groupOf(reader.type) !== 'length-delimited');
    if (findings.length === 0 && numeric && (reader.label === 'repeated') !== (writer.label === 'repeated')) {
      findings.push(
        finding(
          'FIELD_NUMERIC_LABEL_CHANGED',
          path,
          `expected: ${writer.label}, found: ${reader.label}`,
          (r, w, at) =>
            `The numeric field at path '${at}' is ${reader.label} in the ${r} schema and ${writer.label} in the ${w} schema`,
        ),
      );
    }
    return findings;
  }

  private types(reader: ProtoFieldType, writer: ProtoFieldType, path: string): Finding[] {
    const info = `expected: ${typeText(writer)}, found: ${typeText(reader)}`;
    if (kindOf(reader) !== kindOf(writer)) {
      return [
        finding(
          'FIELD_KIND_CHANGED',
          path,
          info,
          (r, w, at) =>
            `The field at path '${at}' is a ${kindOf(reader)} in the ${r} schema and a ${kindOf(writer)} in the ${w} schema`,
        ),
      ];
    }
    if (reader.kind === 'map' && writer.kind === 'map') {
      return [...this.types(reader.key, writer.key, path), ...this.types(reader.value, writer.value, path)];
    }
    if (reader.kind === 'group' && writer.kind === 'group') {
      // A group is read by its field number; its name is not on the wire, its fields are.
      return this.body(reader.type, writer.type, `#/${writer.type.localName.replaceAll('.', '/')}`);
    }
    if (reader.kind === 'message' && writer.kind === 'message') {
      if (reader.type.localName !== writer.type.localName) {
        return [
          finding(
            'FIELD_NAMED_TYPE_CHANGED',
            path,
            info,
            (r, w, at) =>
              `The message type of the field at path '${at}' is ${reader.type.localName} in the ${r} schema and ${writer.type.localName} in the ${w} schema`,
          ),
        ];
      }
      // The files' own types of one name are compared where the walk meets them. An imported type
      // (a referenced file's, a well-known one) is not on that walk, and a referenced file can
      // change between versions, so it is compared here, by the same rules, at paths that name it.
      if (!reader.type.imported && !writer.type.imported) return [];
      const inner = this.body(reader.type, writer.type, importedPath(writer.type));
      if (inner.length === 0) return [];
      if (reader.type.imported && writer.type.imported) return inner;
      // One side's own type and the other's imported one: the message type itself changed.
      return [
        ...inner,
        finding(
          'FIELD_NAMED_TYPE_CHANGED',
          path,
          info,
          (r, w, at) =>
            `The message type ${reader.type.localName} of the field at path '${at}' differs between the ${r} and the ${w} schema`,
        ),
      ];
    }
    if (reader.kind === 'enum' && writer.kind === 'enum' && (reader.type.imported || writer.type.imported)) {
      // As for messages: an imported enum is not on the walk of the files' own types, and the
      // referenced file may have changed its values; compared once per pair, at a path naming it.
      const key = `enum\u0000${reader.type.fullName}\u0000${writer.type.fullName}`;
      if (this.compared.has(key)) return [];
      this.compared.add(key);
      return this.enumeration(reader.type, writer.type, `#/${writer.type.fullName}`);
    }
    if (groupOf(reader) !== groupOf(writer)) {
      return [
        finding(
          'FIELD_SCALAR_KIND_CHANGED',
          path,
          info,
          (r, w, at) =>
            `The field at path '${at}' is ${typeText(reader)} in the ${r} schema and ${typeText(writer)} in the ${w} schema, which are encoded differently`,
        ),
      ];
    }
    return [];
  }

  /** A message compared outside the walk of the files' types: once per pair, so recursion ends. */
  private body(reader: ProtoMessage, writer: ProtoMessage, path: string): Finding[] {
    const key = `${reader.fullName}\u0000${writer.fullName}`;
    if (this.compared.has(key)) return [];
    this.compared.add(key);
    return this.message(reader, writer, path);
  }

  private oneofs(reader: ProtoMessage, writer: ProtoMessage, path: string): Finding[] {
    const findings: Finding[] = [];
    const writerByNumber = new Map(writer.fields.map((field) => [field.number, field]));
    const readerNumbers = new Set(reader.fields.map((field) => field.number));
    for (const [oneof, members] of membersByOneof(reader)) {
      let moved = 0;
      let existing = 0;
      for (const field of members) {
        const source = writerByNumber.get(field.number);
        if (source === undefined) continue;
        if (source.oneof === undefined) moved++;
        else existing++;
      }
      const where = `${path}/${oneof}`;
      if (moved > 1) {
        findings.push(
          finding(
            'MULTIPLE_FIELDS_MOVED_TO_ONEOF',
            where,
            `${moved} fields`,
            (r, w, at) =>
              `The oneof at path '${at}' in the ${r} schema holds ${moved} fields that are outside any oneof in the ${w} schema`,
          ),
        );
      } else if (moved === 1 && existing > 0) {
        findings.push(
          finding(
            'FIELD_MOVED_TO_EXISTING_ONEOF',
            where,
            undefined,
            (r, w, at) =>
              `The oneof at path '${at}' in the ${r} schema takes in a field that is outside a oneof in the ${w} schema, beside members of an existing oneof`,
          ),
        );
      }
    }
    const readerOneofs = new Set(reader.oneofs);
    for (const [oneof, members] of membersByOneof(writer)) {
      if (!readerOneofs.has(oneof)) continue;
      for (const field of members) {
        if (readerNumbers.has(field.number)) continue;
        findings.push(
          finding(
            'ONEOF_FIELD_REMOVED',
            `${path}/${oneof}/${field.number}`,
            field.name,
            (r, w, at) => `The ${r} schema is missing the oneof member at path '${at}' of the ${w} schema`,
          ),
        );
      }
    }
    return findings;
  }

  /** The newer message's fields against the numbers and names the older one reserves. */
  private reserved(reader: ProtoMessage, writer: ProtoMessage, path: string): Finding[] {
    const [newer, older] = this.newer === 'reader' ? [reader, writer] : [writer, reader];
    return newer.fields.flatMap((field) =>
      reuse(older, field.number, field.name, `${path}/${field.number}`, 'field'),
    );
  }

  private enumeration(reader: ProtoEnum, writer: ProtoEnum, path: string): Finding[] {
    const [newer, older] = this.newer === 'reader' ? [reader, writer] : [writer, reader];
    return [...newer.values].flatMap(([name, number]) =>
      reuse(older, number, name, `${path}/${number}`, 'enum value'),
    );
  }
}

/**
 * Where findings inside a message compared outside the walk are reported: a well-known type (or
 * the file's own) by its name within its package, as Confluent's paths are; a referenced file's
 * type by its full name, which tells it from the file's own types of the same local name.
 */
function importedPath(type: ProtoMessage): string {
  return type.imported && !type.wellKnown ? `#/${type.fullName}` : `#/${type.localName.replaceAll('.', '/')}`;
}

/** The members of each real oneof of a message, oneofs in declaration order, members in field order. */
function membersByOneof(message: ProtoMessage): Map<string, ProtoField[]> {
  const members = new Map<string, ProtoField[]>(message.oneofs.map((oneof) => [oneof, []]));
  for (const field of message.fields) if (field.oneof !== undefined) members.get(field.oneof)?.push(field);
  return members;
}

/** A number or name of the newer schema that the older one reserves (the roles' new and old, whichever reads). */
function reuse(
  older: ProtoMessage | ProtoEnum,
  number: number,
  name: string,
  path: string,
  what: string,
): Finding[] {
  const findings: Finding[] = [];
  if (isReservedNumber(older.reserved, number)) {
    findings.push({
      errorType: 'RESERVED_NUMBER_REUSED',
      path,
      additionalInfo: `${name} = ${number}`,
      describe: (_roles, at) =>
        `The ${what} ${name} at path '${at}' in the new schema uses number ${number}, which the old schema reserves`,
    });
  }
  if (older.reserved.names.has(name)) {
    findings.push({
      errorType: 'RESERVED_NAME_REUSED',
      path,
      additionalInfo: name,
      describe: (_roles, at) =>
        `The ${what} at path '${at}' in the new schema is named ${name}, a name the old schema reserves`,
    });
  }
  return findings;
}
