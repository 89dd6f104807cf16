/**
 * The rules of one .proto file that its grammar cannot say and that need no other file, each as
 * protoc applies it: field numbers (1 to 2^29 - 1, not 19000-19999, one field per number), reserved
 * numbers and names (not used, ranges not overlapping), extension ranges, enums (a value at least,
 * proto3's first value zero, aliases only with `allow_alias`), oneofs with a field, proto3's limits
 * (no extension ranges, no explicit defaults, field names distinct in their JSON spelling, enum
 * values distinct without their prefix), scalar `default` values that fit their type, imports
 * listed once. Names defined twice are symbols.ts's; what needs the imported files is link.ts's.
 *
 * Every rule is one pass with Sets and Maps, plus a sort for overlapping ranges: n log n at most.
 */
import type {
  ProtoEnumAst,
  ProtoExtensionRange,
  ProtoFieldAst,
  ProtoFileAst,
  ProtoMessageAst,
  ProtoOption,
  ProtoRange,
  ProtoSyntax,
} from './ast.js';
import { protoError } from './errors.js';
import { maxProtoFieldNumber } from './parse-numbers.js';

/** Numbers Protocol Buffers keeps for its own implementation. */
const implementationRange = [19_000, 19_999] as const;

export function checkProtoFile(file: ProtoFileAst): void {
  const paths = new Set<string>();
  for (const item of file.imports) {
    if (paths.has(item.path)) protoError(`import "${item.path}" is listed twice`, item.at);
    paths.add(item.path);
  }
  for (const message of file.messages) checkMessage(message, file.syntax);
  for (const enumeration of file.enums) checkEnum(enumeration, file.syntax);
  for (const block of file.extends) for (const field of block.fields) checkField(field, file.syntax, true);
}

function checkMessage(message: ProtoMessageAst, syntax: ProtoSyntax): void {
  const byNumber = new Map<number, ProtoFieldAst>();
  const reservedNames = new Set<string>();
  for (const reserved of message.reserved.names) {
    if (reservedNames.has(reserved.name))
      protoError(`field name "${reserved.name}" is reserved twice`, reserved.at);
    reservedNames.add(reserved.name);
  }
  for (const range of message.reserved.ranges) {
    if (range.start < 1) protoError('reserved numbers must be positive', range.at);
  }
  noOverlaps(message.reserved.ranges, 'reserved range');
  const oneofFields = new Array<number>(message.oneofs.length).fill(0);
  for (const field of message.fields) {
    checkField(field, syntax, false);
    const [low, high] = implementationRange;
    if (field.number < 1 || field.number > maxProtoFieldNumber) {
      protoError(
        `field ${field.name} has number ${field.number}: field numbers go from 1 to ${maxProtoFieldNumber}`,
        field.at,
      );
    }
    if (field.number >= low && field.number <= high) {
      protoError(
        `field ${field.name} has number ${field.number}: ${low} to ${high} are kept for the Protocol Buffers implementation`,
        field.at,
      );
    }
    const owner = byNumber.get(field.number);
    if (owner !== undefined) {
      protoError(
        `field number ${field.number} is used by both "${owner.name}" and "${field.name}" in "${message.name}"`,
        field.at,
      );
    }
    byNumber.set(field.number, field);
    if (reservedNames.has(field.name)) protoError(`field name "${field.name}" is reserved`, field.at);
    if (field.oneof !== undefined) oneofFields[field.oneof] = (oneofFields[field.oneof] ?? 0) + 1;
  }
  for (const [index, oneof] of message.oneofs.entries()) {
    if (oneofFields[index] === 0) protoError(`oneof ${oneof.name} has no field`, oneof.at);
  }
  usedInRanges(message, byNumber);
  if (message.extensionRanges.length > 0) {
    const first = message.extensionRanges[0] as ProtoExtensionRange;
    if (syntax === 'proto3') protoError('extension ranges are not allowed in proto3', first.at);
    for (const range of message.extensionRanges) {
      if (range.start < 1) protoError('extension numbers must be positive', range.at);
      if (range.end > maxProtoFieldNumber)
        protoError(`extension numbers cannot be greater than ${maxProtoFieldNumber}`, range.at);
      if (range.end < range.start) protoError('an extension range must end after it starts', range.at);
    }
    noOverlaps(message.extensionRanges, 'extension range');
    noOverlapsBetween(message.extensionRanges, message.reserved.ranges);
  }
  if (syntax === 'proto3') distinctJsonNames(message);
  for (const nested of message.messages) checkMessage(nested, syntax);
  for (const enumeration of message.enums) checkEnum(enumeration, syntax);
  for (const block of message.extends) for (const field of block.fields) checkField(field, syntax, true);
}

/** A field whose number falls in a reserved or an extension range (ranges sorted, then one search each). */
function usedInRanges(message: ProtoMessageAst, byNumber: ReadonlyMap<number, ProtoFieldAst>): void {
  const reserved = sortedRanges(message.reserved.ranges);
  const extensions = sortedRanges(message.extensionRanges);
  for (const [number, field] of byNumber) {
    if (inRanges(reserved, number) !== undefined)
      protoError(`field "${field.name}" uses reserved number ${number}`, field.at);
    const range = inRanges(extensions, number);
    if (range !== undefined)
      protoError(
        `extension range ${range.start} to ${range.end} includes field "${field.name}" (${number})`,
        range.at,
      );
  }
}

function checkField(field: ProtoFieldAst, syntax: ProtoSyntax, extension: boolean): void {
  if (field.type.kind === 'group') checkMessage(field.type.message, syntax);
  const seen = new Set<string>();
  for (const option of field.options) {
    const simple = option.name.length === 1 && option.name[0]?.extension === false ? option.name[0].name : '';
    if (simple === 'default' || simple === 'json_name') {
      if (seen.has(simple)) protoError(`option "${simple}" is set twice`, option.at);
      seen.add(simple);
    }
    if (simple === 'default') checkDefault(field, option, syntax);
    if (simple === 'json_name' && extension)
      protoError('json_name is not allowed on extension fields', option.at);
  }
}

const int32Range = [-(2n ** 31n), 2n ** 31n - 1n] as const;
const int64Range = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const integerRanges: Readonly<Record<string, readonly [bigint, bigint]>> = {
  int32: int32Range,
  sint32: int32Range,
  sfixed32: int32Range,
  int64: int64Range,
  sint64: int64Range,
  sfixed64: int64Range,
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};

/** A `default` that protoc's parser refuses: where there may be none, or of the wrong kind of value. */
function checkDefault(field: ProtoFieldAst, option: ProtoOption, syntax: ProtoSyntax): void {
  const { value, at } = option;
  if (syntax === 'proto3') protoError('explicit default values are not allowed in proto3', at);
  if (field.label === 'repeated') protoError('repeated fields cannot have default values', at);
  const type = field.type;
  if (type.kind === 'group' || type.kind === 'map') protoError('messages cannot have default values', at);
  if (type.kind === 'named') {
    // Messages and enum values are told apart once the name is resolved (link.ts).
    if (value.kind !== 'identifier' || value.negative)
      protoError('the default of an enum field must be one of its values', at);
    return;
  }
  const range = integerRanges[type.scalar];
  if (range !== undefined) {
    if (value.kind !== 'integer')
      protoError(`expected an integer as the default of a ${type.scalar} field`, at);
    const number = BigInt(value.value);
    if (number < 0n && range[0] === 0n) protoError('an unsigned field cannot have a negative default', at);
    if (number < range[0] || number > range[1]) protoError('integer out of range', at);
    return;
  }
  switch (type.scalar) {
    case 'float':
    case 'double':
      if (
        value.kind !== 'integer' &&
        value.kind !== 'float' &&
        !(value.kind === 'identifier' && (value.value === 'inf' || value.value === 'nan'))
      ) {
        protoError(`expected a number as the default of a ${type.scalar} field`, at);
      }
      return;
    case 'bool':
      if (value.kind !== 'identifier' || (value.value !== 'true' && value.value !== 'false'))
        protoError('expected "true" or "false" as the default of a bool field', at);
      return;
    default:
      if (value.kind !== 'string')
        protoError(`expected a string as the default of a ${type.scalar} field`, at);
      // protoc lets a string default hold any bytes (and only logs an error writing its
      // descriptor); a string value must be UTF-8, so such a default could never be one.
      if (type.scalar === 'string' && value.octets !== undefined)
        protoError('the default of a string field must be UTF-8 (its escapes spell bytes that are not)', at);
  }
}

/** proto3: field names that spell one JSON name (underscores dropped, case ignored) are refused. */
function distinctJsonNames(message: ProtoMessageAst): void {
  const byName = new Map<string, string>();
  for (const field of message.fields) {
    const key = field.name.replaceAll('_', '').toLowerCase();
    const other = byName.get(key);
    if (other !== undefined)
      protoError(
        `the JSON name of field "${field.name}" is that of field "${other}" (not allowed in proto3)`,
        field.at,
      );
    byName.set(key, field.name);
  }
}

function checkEnum(enumeration: ProtoEnumAst, syntax: ProtoSyntax): void {
  const first = enumeration.values[0];
  if (first === undefined) protoError(`enum ${enumeration.name} has no value`, enumeration.at);
  if (syntax === 'proto3' && first.number !== 0)
    protoError(`the first value of enum ${enumeration.name} must be zero in proto3`, first.at);
  const allowAlias = enumeration.options.find(
    (option) =>
      option.name.length === 1 &&
      option.name[0]?.extension === false &&
      option.name[0].name === 'allow_alias',
  );
  const aliasesAllowed = allowAlias?.value.kind === 'identifier' && allowAlias.value.value === 'true';
  if (allowAlias !== undefined && !aliasesAllowed)
    protoError(
      `enum ${enumeration.name} sets allow_alias to something other than true, which has no effect`,
      allowAlias.at,
    );
  const byNumber = new Map<number, string>();
  let aliased = false;
  for (const value of enumeration.values) {
    const other = byNumber.get(value.number);
    if (other !== undefined) {
      aliased = true;
      if (!aliasesAllowed)
        protoError(
          `"${value.name}" has the number of "${other}"; to mean it, set "option allow_alias = true;" on the enum`,
          value.at,
        );
    } else byNumber.set(value.number, value.name);
  }
  if (aliasesAllowed && !aliased)
    protoError(`enum ${enumeration.name} allows aliases but no two values share a number`, allowAlias.at);
  const names = new Set<string>();
  for (const reserved of enumeration.reserved.names) {
    if (names.has(reserved.name))
      protoError(`enum value name "${reserved.name}" is reserved twice`, reserved.at);
    names.add(reserved.name);
  }
  for (const range of enumeration.reserved.ranges) {
    if (range.end < range.start) protoError('a reserved range must end after it starts', range.at);
  }
  noOverlaps(enumeration.reserved.ranges, 'reserved range');
  const reserved = sortedRanges(enumeration.reserved.ranges);
  for (const value of enumeration.values) {
    if (names.has(value.name)) protoError(`enum value "${value.name}" is reserved`, value.at);
    if (inRanges(reserved, value.number) !== undefined)
      protoError(`enum value "${value.name}" uses reserved number ${value.number}`, value.at);
  }
  if (syntax === 'proto3') distinctWithoutPrefix(enumeration);
}

/**
 * proto3: two values of different numbers whose names are one once the enum's name is stripped as
 * a prefix and case is ignored (`COLOR_RED` and `Red` in enum Color), as protoc refuses them, since
 * generators that strip the prefix would make them one.
 */
function distinctWithoutPrefix(enumeration: ProtoEnumAst): void {
  const prefix = enumeration.name.replaceAll('_', '').toLowerCase();
  const byKey = new Map<string, { name: string; number: number }>();
  for (const value of enumeration.values) {
    const key = pascalCase(withoutPrefix(value.name, prefix));
    const other = byKey.get(key);
    if (other === undefined) byKey.set(key, value);
    else if (other.name !== value.name && other.number !== value.number) {
      protoError(
        `enum value "${value.name}" is "${other.name}" once the prefix ${enumeration.name} and case are ignored`,
        value.at,
      );
    }
  }
}

function withoutPrefix(name: string, prefix: string): string {
  let i = 0;
  let j = 0;
  for (; i < name.length && j < prefix.length; i++) {
    if (name[i] === '_') continue;
    if ((name[i] as string).toLowerCase() !== prefix[j++]) return name;
  }
  if (j < prefix.length) return name;
  while (i < name.length && name[i] === '_') i++;
  return i === name.length ? name : name.slice(i);
}

function pascalCase(name: string): string {
  let out = '';
  let upper = true;
  for (const char of name) {
    if (char === '_') upper = true;
    else {
      out += upper ? char.toUpperCase() : char.toLowerCase();
      upper = false;
    }
  }
  return out;
}

/**
 * The ranges that hold numbers, sorted by start, for `inRanges`. A range whose end is before its
 * start (protoc 3.21 accepts `reserved 5 to 1` in a message) holds none and is left out.
 */
export function sortedRanges<T extends ProtoRange>(ranges: readonly T[]): T[] {
  return ranges.filter((range) => range.end >= range.start).sort((a, b) => a.start - b.start);
}

/** The range of `sorted` (from sortedRanges, without overlaps) holding `number`, by binary search. */
export function inRanges<T extends ProtoRange>(sorted: readonly T[], number: number): T | undefined {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = sorted[middle] as T;
    if (number < range.start) high = middle - 1;
    else if (number > range.end) low = middle + 1;
    else return range;
  }
  return undefined;
}

function noOverlaps(ranges: readonly ProtoRange[], what: string): void {
  const sorted = sortedRanges(ranges);
  for (let i = 1; i < sorted.length; i++) {
    const [before, range] = [sorted[i - 1] as ProtoRange, sorted[i] as ProtoRange];
    if (range.start <= before.end)
      protoError(
        `${what} ${range.start} to ${range.end} overlaps ${before.start} to ${before.end}`,
        range.at,
      );
  }
}

/** An extension range overlapping a reserved range (both lists checked free of overlaps already). */
function noOverlapsBetween(extensions: readonly ProtoRange[], reserved: readonly ProtoRange[]): void {
  const sorted = sortedRanges(reserved);
  for (const range of extensions) {
    // The first reserved range ending at or after this one's start; it overlaps if it starts before the end.
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((sorted[middle] as ProtoRange).end < range.start) low = middle + 1;
      else high = middle;
    }
    const next = sorted[low];
    if (next !== undefined && next.start <= range.end)
      protoError(
        `extension range ${range.start} to ${range.end} overlaps reserved range ${next.start} to ${next.end}`,
        range.at,
      );
  }
}
