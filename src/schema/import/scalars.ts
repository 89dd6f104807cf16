/**
 * The kinds without children (booleans aside): integers, numbers, strings, literals, and the check
 * of `type` beside an `enum`. Each reads only keywords whose verdict its kind keeps, and refuses the
 * rest by name.
 */
import type { SmallIntOptions } from '../builders.js';
import * as t from '../builders.js';
import { plainJsonSchemaOf } from '../export/json-schema.js';
import { smallIntRange } from '../int-ranges.js';
import type {
  AvroIntForm,
  AvroStringForm,
  JsonValue,
  MapKeySchema,
  ProtoIntType,
  Schema,
  SmallIntKind,
} from '../types.js';
import { build, childPointer, importError, type JsonObject, refuseUnread } from './json-document.js';
import { bothPatterns, stringFormatPatterns } from './string-formats.js';
import {
  annotatedKind,
  avroOf,
  isSmallIntKind,
  protoOf,
  sameJson,
  stringCarriedKind,
  timestampPrecision,
  timestampRange,
} from './wirekit-annotations.js';

/**
 * The small integer kinds from the narrowest: the first whose range holds an integer's bounds is the
 * one it becomes, with the bounds kept (t.int32({ min, max })) so that validate() refuses what they
 * refuse. A signed kind comes before the unsigned one of the next width, so 0..40000 is a uint16
 * but 0..3e9, which only uint32 holds, the one uint32.
 */
const narrowestFirst: readonly SmallIntKind[] = ['uint8', 'int8', 'uint16', 'int16', 'int32', 'uint32'];

/** The ranges of the 64-bit kinds as numbers (`as: 'number'`), which validate() holds to ±(2^53 - 1). */
const safeIntegerKinds: readonly { range: readonly [number, number]; make: () => Schema }[] = [
  { range: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], make: () => t.int64({ as: 'number' }) },
  { range: [0, Number.MAX_SAFE_INTEGER], make: () => t.uint64({ as: 'number' }) },
];

/** The keywords that judge a string's text, which a timestamp (format date-time alone) has none of. */
const textKeywords = ['minLength', 'maxLength', 'pattern'];
const stringKeywords = ['type', 'format', ...textKeywords];

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

/**
 * An integer node as the narrowest kind its bounds fit, or as the kind `x-wirekit-kind` names
 * (`annotated`), whose range must then hold the bounds, with its declared Protocol Buffers type.
 */
export function integerOf(node: JsonObject, pointer: string, annotated?: SmallIntKind): Schema {
  refuseUnread(
    node,
    [
      'type',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'multipleOf',
      'format',
      ...(annotated === undefined ? [] : ['x-wirekit-kind', 'x-wirekit-proto', 'x-wirekit-avro']),
    ],
    pointer,
    'is not read for integers.',
  );
  const { format, multipleOf } = node;
  if (format !== undefined && format !== 'int32' && format !== 'int64') {
    throw importError(
      childPointer(pointer, 'format'),
      `the integer format ${JSON.stringify(format)} is not read.`,
    );
  }
  // Every integer is a multiple of 1 (and of 0.5, ...): such a multipleOf refuses nothing.
  if (
    multipleOf !== undefined &&
    !(typeof multipleOf === 'number' && multipleOf > 0 && 1 % multipleOf === 0)
  ) {
    throw importError(
      childPointer(pointer, 'multipleOf'),
      'the keyword "multipleOf" with a step other than a divisor of 1 has no wirekit counterpart (validate() checks no step).',
    );
  }
  let [min, max] = integerBounds(node, pointer);
  // OpenAPI's int32 format is a range of its own, which the bounds may narrow.
  if (format === 'int32') {
    min = Math.max(min ?? -(2 ** 31), -(2 ** 31));
    max = Math.min(max ?? 2 ** 31 - 1, 2 ** 31 - 1);
  }
  if (min !== undefined && max !== undefined) {
    if (min > max) throw importError(pointer, `the bounds ${min}..${max} leave no integer.`);
    if (annotated !== undefined) {
      // An int32's Avro logical type; the builder refuses one on another kind.
      const avro = avroOf<AvroIntForm>(node, pointer, 'string');
      return build(pointer, () => smallIntBuilders[annotated]({ min, max, ...protoOf(node), ...avro }));
    }
    const kind = narrowestFirst.find((candidate) => {
      const [least, greatest] = smallIntRange[candidate];
      return least <= min && max <= greatest;
    });
    if (kind !== undefined) return build(pointer, () => smallIntBuilders[kind]({ min, max }));
    const exact = safeIntegerKinds.find(({ range }) => range[0] === min && range[1] === max);
    if (exact !== undefined) return exact.make();
  }
  const wanted =
    min === undefined && max === undefined ? 'no bounds' : `the bounds ${min ?? '-∞'}..${max ?? '∞'}`;
  throw importError(
    pointer,
    `an integer with ${wanted} has no wirekit kind (validate() would refuse integers JSON Schema accepts): bound it within -2^31..2^32-1, or give exactly ±(2^53-1) or 0..2^53-1 (int64/uint64 as numbers), or format int32.`,
  );
}

/** The builders by kind; each checks that a declared Protocol Buffers type fits its kind. */
type SmallIntBuilder = (options: SmallIntOptions<ProtoIntType>) => Schema;
const smallIntBuilders: Record<SmallIntKind, SmallIntBuilder> = {
  int8: t.int8 as SmallIntBuilder,
  int16: t.int16 as SmallIntBuilder,
  int32: t.int32 as SmallIntBuilder,
  uint8: t.uint8 as SmallIntBuilder,
  uint16: t.uint16 as SmallIntBuilder,
  uint32: t.uint32 as SmallIntBuilder,
};

/**
 * The least and greatest integer `minimum`, `maximum` and their exclusive forms (2020-12 and
 * draft-07 numbers; draft-04's booleans are refused) allow: 0.5 as a minimum allows 1.
 */
function integerBounds(node: JsonObject, pointer: string): [number | undefined, number | undefined] {
  const bound = (keyword: string) => boundOf(node, keyword, pointer);
  // Read in the order the keywords were always checked, so a document with two bad ones names the same.
  const min = bound('minimum');
  const exclusiveMin = bound('exclusiveMinimum');
  const max = bound('maximum');
  const exclusiveMax = bound('exclusiveMaximum');
  return [
    tightest(
      [
        min === undefined ? undefined : Math.ceil(min),
        exclusiveMin === undefined ? undefined : Math.floor(exclusiveMin) + 1,
      ],
      Math.max,
    ),
    tightest(
      [
        max === undefined ? undefined : Math.floor(max),
        exclusiveMax === undefined ? undefined : Math.ceil(exclusiveMax) - 1,
      ],
      Math.min,
    ),
  ];
}

/** A bound keyword's value: a finite number, or absent. */
function boundOf(node: JsonObject, keyword: string, pointer: string): number | undefined {
  const value = node[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw importError(
      childPointer(pointer, keyword),
      `${keyword} must be a number (draft-04's boolean exclusive bounds are not read).`,
    );
  }
  return value;
}

/** The tightest of the bounds given (`Math.max` of lower ones, `Math.min` of upper ones), if any. */
function tightest(values: (number | undefined)[], pick: (...n: number[]) => number): number | undefined {
  const given = values.filter((v): v is number => v !== undefined);
  return given.length === 0 ? undefined : pick(...given);
}

export function numberOf(node: JsonObject, pointer: string): Schema {
  refuseUnread(
    node,
    ['type', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
    pointer,
    'is not read for numbers (a float64 keeps inclusive bounds only).',
  );
  if (node.format !== undefined && node.format !== 'double') {
    throw importError(
      childPointer(pointer, 'format'),
      `the number format ${JSON.stringify(node.format)} is not read.`,
    );
  }
  const [min, max] = numberBounds(node, pointer);
  if (min !== undefined && max !== undefined && min > max) {
    throw importError(pointer, `the bounds ${min}..${max} leave no number.`);
  }
  return build(pointer, () => t.float64({ min, max }));
}

/**
 * The inclusive float64 bounds `minimum`, `maximum` and their exclusive forms allow: an exclusive
 * bound is the next double past it, exact since no double lies between (`exclusiveMinimum: 0` is
 * `min: 5e-324`).
 */
function numberBounds(node: JsonObject, pointer: string): [number | undefined, number | undefined] {
  const bound = (keyword: string) => boundOf(node, keyword, pointer);
  const above = bound('exclusiveMinimum');
  const below = bound('exclusiveMaximum');
  return [
    tightest([bound('minimum'), above === undefined ? undefined : nextDouble(above, 1)], Math.max),
    tightest([bound('maximum'), below === undefined ? undefined : nextDouble(below, -1)], Math.min),
  ];
}

/** The double next to a finite `value` towards +Infinity (`direction` 1) or -Infinity (-1). */
function nextDouble(value: number, direction: 1 | -1): number {
  if (value === 0) return direction * Number.MIN_VALUE;
  const bits = new BigInt64Array(new Float64Array([value]).buffer);
  // The bits of a double of one sign count up with its magnitude.
  bits[0] = (bits[0] as bigint) + (value > 0 === direction > 0 ? 1n : -1n);
  return (new Float64Array(bits.buffer)[0] as number) + 0;
}

/**
 * A string node: a timestamp where it is `format: date-time` alone (or with its precision), else a
 * string whose pattern holds the format's (string-formats.ts) and the node's own. A date-time with a
 * pattern beside it (zod's `z.iso.datetime()`) stays text, since a timestamp keeps no text for the
 * pattern to judge: `+01:00` and `Z` name one instant, which a pattern may tell apart.
 */
export function stringOf(node: JsonObject, pointer: string): Schema {
  const format = node.format;
  const instant = format === 'date-time' && !textKeywords.some((keyword) => keyword in node);
  const annotations = instant ? ['x-wirekit-precision', 'x-wirekit-range'] : ['x-wirekit-avro'];
  refuseUnread(node, [...stringKeywords, ...annotations], pointer, 'is not read for strings.');
  if (instant) {
    return build(pointer, () =>
      t.timestamp({ precision: timestampPrecision(node, pointer), ...timestampRange(node) }),
    );
  }
  if (format !== undefined && (typeof format !== 'string' || !Object.hasOwn(stringFormatPatterns, format))) {
    throw importError(
      childPointer(pointer, 'format'),
      `the string format ${JSON.stringify(format)} is not read (wirekit keeps no pattern equal to ajv-formats' for it); drop the format and say what it means with a pattern.`,
    );
  }
  const given = node.pattern;
  if (given !== undefined && typeof given !== 'string')
    throw importError(childPointer(pointer, 'pattern'), 'pattern must be a string.');
  if (typeof given === 'string') {
    try {
      new RegExp(given, 'u');
    } catch {
      throw importError(
        childPointer(pointer, 'pattern'),
        'the pattern is not a valid regular expression (with the u flag).',
      );
    }
  }
  const pattern =
    typeof format === 'string' ? bothPatterns(stringFormatPatterns[format] as string, given) : given;
  return build(pointer, () =>
    t.string({
      minLength: count(node, 'minLength', pointer),
      maxLength: count(node, 'maxLength', pointer),
      pattern,
      ...avroOf<AvroStringForm>(node, pointer, 'string'),
    }),
  );
}

/** A node that names its kind in `x-wirekit-kind` (wirekit-annotations.ts). */
export function annotatedNode(node: JsonObject, pointer: string): Schema {
  const kind = annotatedKind(node, pointer) as string;
  if (!isSmallIntKind(kind)) return stringCarriedKind(node, kind, pointer);
  if (node.type !== 'integer') {
    throw importError(pointer, `x-wirekit-kind ${JSON.stringify(kind)} is read only beside type "integer".`);
  }
  return integerOf(node, pointer, kind);
}

/**
 * The keys of a map whose `propertyNames` name an integer kind: their text must be the pattern
 * the exporter writes for that kind's keys (json-schema.ts), so that validators refuse what the
 * key kind refuses, as far as a pattern can (the kind's range is validate()'s to check).
 */
export function mapKeysOf(names: JsonObject, pointer: string): MapKeySchema | undefined {
  const kind = names['x-wirekit-kind'];
  if (kind === undefined) return undefined;
  const keys = build(pointer, () => {
    if (typeof kind === 'string' && isSmallIntKind(kind)) return smallIntBuilders[kind](protoOf(names));
    if (kind === 'int64') return t.int64(protoOf(names) as { proto?: never });
    if (kind === 'uint64') return t.uint64(protoOf(names) as { proto?: never });
    throw importError(
      childPointer(pointer, 'x-wirekit-kind'),
      'map keys name an integer kind in x-wirekit-kind, or none.',
    );
  }) as MapKeySchema;
  const written = plainJsonSchemaOf(t.map(keys, t.json()));
  const expected = written === true ? undefined : written.propertyNames;
  const { 'x-wirekit-kind': _kind, 'x-wirekit-proto': _proto, ...rest } = names;
  if (!sameJson(rest, expected)) {
    throw importError(
      pointer,
      `keys of x-wirekit-kind ${JSON.stringify(kind)} are read only with propertyNames ${JSON.stringify(expected)}.`,
    );
  }
  return keys;
}
