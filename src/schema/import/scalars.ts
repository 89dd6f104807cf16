/**
 * The kinds without children (booleans aside): integers, numbers, strings, literals, and the check
 * of `type` beside an `enum`. Each reads only keywords whose verdict its kind keeps, and refuses the
 * rest by name.
 */
import { isWirekitError } from '../../errors/index.js';
import * as t from '../builders.js';
import { smallIntRange } from '../int-ranges.js';
import type { JsonValue, Schema, SmallIntKind } from '../types.js';
import { childPointer, importError, type JsonObject, refuseUnread } from './json-document.js';

/** Integer bounds that are exactly a kind's range, so the kind refuses what the bounds refuse. */
const exactIntegerKinds: readonly { range: readonly [number, number]; make: () => Schema }[] = [
  ...(
    [
      ['int8', t.int8],
      ['uint8', t.uint8],
      ['int16', t.int16],
      ['uint16', t.uint16],
      ['int32', t.int32],
      ['uint32', t.uint32],
    ] as const
  ).map(([kind, make]: readonly [SmallIntKind, () => Schema]) => ({ range: smallIntRange[kind], make })),
  { range: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], make: () => t.int64({ as: 'number' }) },
  { range: [0, Number.MAX_SAFE_INTEGER], make: () => t.uint64({ as: 'number' }) },
];

/** ajv-formats' uuid, spelled without the `i` flag (wirekit patterns carry no flags). */
const uuidPattern = '^(?:urn:uuid:)?[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$';

const stringKeywords = ['type', 'minLength', 'maxLength', 'pattern', 'format'];

/** Runs a builder, turning its WK_SCHEMA_INVALID into an import error at `pointer`. */
export function build<S>(pointer: string, make: () => S): S {
  try {
    return make();
  } catch (error) {
    if (isWirekitError(error, 'WK_SCHEMA_INVALID')) throw importError(pointer, error.message);
    throw error;
  }
}

export function count(node: JsonObject, keyword: string, pointer: string): number | undefined {
  const value = node[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw importError(childPointer(pointer, keyword), `${keyword} must be a non-negative integer.`);
  }
  return value;
}

export function literalOf(node: JsonObject, pointer: string): Schema {
  refuseUnread(node, ['const', 'type'], pointer, 'is not read next to const.');
  const value = node.const;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    throw importError(
      childPointer(pointer, 'const'),
      `a const of ${value === null ? 'null' : 'an object or array'} has no wirekit kind; literals are strings, numbers or booleans.`,
    );
  }
  if (
    node.type !== undefined &&
    node.type !== jsonTypeOf(value) &&
    !(node.type === 'number' && typeof value === 'number')
  ) {
    throw importError(
      childPointer(pointer, 'type'),
      `the type ${JSON.stringify(node.type)} contradicts the const.`,
    );
  }
  return build(pointer, () => t.literal(value));
}

function jsonTypeOf(value: string | number | boolean): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'string' ? 'string' : 'boolean';
}

/** `type` next to `enum` must let every member through, or JSON Schema would refuse some of them. */
export function checkEnumType(node: JsonObject, hasNull: boolean, pointer: string): void {
  const type = node.type;
  if (type === undefined) return;
  const allowed = Array.isArray(type) ? type : [type];
  const members = (node.enum as JsonValue[]).filter((value) => value !== null);
  const fits = members.every((value) => {
    const kind = jsonTypeOf(value as string | number | boolean);
    return allowed.includes(kind) || (kind === 'integer' && allowed.includes('number'));
  });
  if (!fits || (hasNull && !allowed.includes('null'))) {
    throw importError(
      childPointer(pointer, 'type'),
      'the type refuses some enum members; write the enum alone.',
    );
  }
}

export function integerOf(node: JsonObject, pointer: string): Schema {
  refuseUnread(node, ['type', 'minimum', 'maximum', 'format'], pointer, 'is not read for integers.');
  const { minimum, maximum, format } = node;
  if (format === 'int32' && minimum === undefined && maximum === undefined) return t.int32();
  if (format !== undefined && format !== 'int32' && format !== 'int64') {
    throw importError(
      childPointer(pointer, 'format'),
      `the integer format ${JSON.stringify(format)} is not read.`,
    );
  }
  const exact = exactIntegerKinds.find(({ range }) => range[0] === minimum && range[1] === maximum);
  if (exact !== undefined && (format === undefined || format === 'int64' || fitsInt32(exact.range)))
    return exact.make();
  const wanted =
    minimum === undefined && maximum === undefined
      ? 'no bounds'
      : `the bounds ${minimum ?? '-∞'}..${maximum ?? '∞'}`;
  throw importError(
    pointer,
    `an integer with ${wanted} has no wirekit kind of exactly that range (validate() would accept other values); use minimum/maximum of int8..uint32, ±(2^53-1) or 0..2^53-1, or format int32.`,
  );
}

function fitsInt32([min, max]: readonly [number, number]): boolean {
  return min >= -(2 ** 31) && max < 2 ** 31;
}

export function numberOf(node: JsonObject, pointer: string): Schema {
  refuseUnread(node, ['type', 'format'], pointer, 'is not read for numbers (a float64 has no bounds).');
  if (node.format !== undefined && node.format !== 'double') {
    throw importError(
      childPointer(pointer, 'format'),
      `the number format ${JSON.stringify(node.format)} is not read.`,
    );
  }
  return t.float64();
}

export function stringOf(node: JsonObject, pointer: string): Schema {
  refuseUnread(node, stringKeywords, pointer, 'is not read for strings.');
  const format = node.format;
  if (format === 'date-time') {
    refuseUnread(node, ['type', 'format'], pointer, 'is not read next to format date-time.');
    return t.timestamp();
  }
  if (format !== undefined && format !== 'uuid') {
    throw importError(
      childPointer(pointer, 'format'),
      `the string format ${JSON.stringify(format)} is not read yet.`,
    );
  }
  if (format === 'uuid' && node.pattern !== undefined) {
    throw importError(
      pointer,
      'format uuid and pattern together need two patterns; a wirekit string has one.',
    );
  }
  const pattern = format === 'uuid' ? uuidPattern : node.pattern;
  if (pattern !== undefined && typeof pattern !== 'string')
    throw importError(childPointer(pointer, 'pattern'), 'pattern must be a string.');
  if (typeof pattern === 'string') {
    try {
      new RegExp(pattern, 'u');
    } catch {
      throw importError(
        childPointer(pointer, 'pattern'),
        'the pattern is not a valid regular expression (with the u flag).',
      );
    }
  }
  return build(pointer, () =>
    t.string({
      minLength: count(node, 'minLength', pointer),
      maxLength: count(node, 'maxLength', pointer),
      pattern,
    }),
  );
}
