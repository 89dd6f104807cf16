/**
 * The Avro forms a schema may declare (types.ts: AvroIntForm, AvroLongForm, AvroStringForm,
 * AvroFixedForm, AvroDecimalForm), checked where the builders make a node. They exist so that an
 * imported `.avsc` goes back out unchanged: an Avro logical type wirekit has no kind for (a date, a
 * time of day, a wall-clock timestamp, a uuid, a duration) rides on the kind that holds the value
 * Avro stores, and a `fixed` keeps its name. The value a form describes is the stored one (days,
 * microseconds, the uuid's text, the 12 bytes of a duration), so every codec reads and writes it as
 * the kind it sits on, and fastavro's bytes and wirekit's are the same.
 */
import { describeValue, WirekitError } from '../errors/index.js';
import { checkTypeName } from './names.js';
import type {
  AvroDecimalForm,
  AvroFixedForm,
  AvroFixedName,
  AvroIntForm,
  AvroLongForm,
  AvroStringForm,
} from './types.js';

function invalid(message: string): never {
  throw new WirekitError('WK_SCHEMA_INVALID', message);
}

const intForms: readonly AvroIntForm[] = ['date', 'time-millis'];
const longForms: readonly AvroLongForm[] = [
  'time-micros',
  'local-timestamp-millis',
  'local-timestamp-micros',
  'local-timestamp-nanos',
];
const stringForms: readonly AvroStringForm[] = ['uuid'];

/** The size each logical type of a fixed requires (Avro 1.12: uuid on fixed(16), duration on fixed(12)). */
export const fixedLogicalSizes = { uuid: 16, duration: 12 } as const;

function checkOneOf<T>(what: string, allowed: readonly T[], value: unknown): void {
  if (value !== undefined && !allowed.includes(value as T)) {
    invalid(`${what}: avro must be one of ${allowed.join(', ')}, got ${describeValue(value)}.`);
  }
}

/** An Avro form on an integer kind: only an int32 is an Avro int, only an int64 a long. */
export function checkIntForm(kind: string, form: unknown): void {
  if (form === undefined) return;
  if (kind === 'int32') checkOneOf(kind, intForms, form);
  else if (kind === 'int64') checkOneOf(kind, longForms, form);
  else invalid(`${kind}: only int32 (an Avro int) and int64 (an Avro long) declare an Avro logical type.`);
}

export function checkStringForm(form: unknown): void {
  checkOneOf('string', stringForms, form);
}

function checkFixedName(what: string, form: AvroFixedName): void {
  if (typeof form !== 'object' || form === null || typeof form.name !== 'string')
    invalid(`${what}: avro must be an object with a name.`);
  checkTypeName(form.name);
  if (form.namespace !== undefined) {
    for (const part of String(form.namespace).split('.')) checkTypeName(part, 'namespace part');
  }
  if (form.aliases !== undefined && !Array.isArray(form.aliases))
    invalid(`${what}: avro.aliases must be a list of names.`);
  for (const alias of form.aliases ?? []) checkTypeName(alias, 'alias');
}

/** The fixed form of a sized bytes kind, frozen; `size` must be set, and fit the logical type. */
export function fixedForm(
  size: number | undefined,
  form: AvroFixedForm | undefined,
): AvroFixedForm | undefined {
  if (form === undefined) return undefined;
  if (size === undefined) invalid('bytes: avro (a fixed) needs a size.');
  checkFixedName('bytes', form);
  const { logicalType } = form;
  if (logicalType !== undefined) {
    checkOneOf('bytes: avro.logicalType', Object.keys(fixedLogicalSizes), logicalType);
    if (fixedLogicalSizes[logicalType] !== size)
      invalid(`bytes: an Avro ${logicalType} is ${fixedLogicalSizes[logicalType]} bytes, not ${size}.`);
  }
  return frozenName(form, logicalType === undefined ? {} : { logicalType });
}

/**
 * The fixed form of a decimal: it needs a precision and a scale (Avro's decimal has both), and
 * `size` bytes of two's complement must hold every value of that precision.
 */
export function decimalForm(
  precision: number | undefined,
  scale: number | undefined,
  form: AvroDecimalForm | undefined,
): AvroDecimalForm | undefined {
  if (form === undefined) return undefined;
  checkFixedName('decimal', form);
  if (precision === undefined || scale === undefined)
    invalid('decimal: avro (a fixed) needs a precision and a scale.');
  const { size } = form;
  if (!Number.isSafeInteger(size) || size < 1) invalid(`decimal: avro.size must be a positive integer.`);
  if (precision > maxDecimalPrecision(size))
    invalid(`decimal: ${size} bytes hold at most ${maxDecimalPrecision(size)} digits, not ${precision}.`);
  return frozenName(form, { size });
}

/** The digits every value of which fits `size` bytes of two's complement: ⌊log10(2^(8·size−1) − 1)⌋. */
export function maxDecimalPrecision(size: number): number {
  // Exact where it matters; past 64 bytes the float estimate is as good and costs no huge bigint.
  if (size > 64) return Math.floor((8 * size - 1) * Math.log10(2));
  return ((1n << BigInt(8 * size - 1)) - 1n).toString().length - 1;
}

function frozenName<T extends object>(form: AvroFixedName, extra: T): AvroFixedName & T {
  return Object.freeze({
    name: form.name,
    ...(form.namespace === undefined ? {} : { namespace: form.namespace }),
    ...(form.aliases === undefined ? {} : { aliases: Object.freeze([...form.aliases]) }),
    ...extra,
  });
}
