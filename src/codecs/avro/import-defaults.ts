/**
 * Field defaults of an imported Avro schema, read from Avro's JSON encoding into the wirekit values
 * of the field's schema, and checked against the type as Avro's own parsers check them: a default
 * that does not fit is refused with its path. Also home to the raw-JSON helpers the importer shares.
 */
import type { Path } from '../../errors/index.js';
import type { AvroRecord, AvroType, AvroUnion } from './avro-schema.js';
import { refuse } from './import-refusal.js';

export type Raw = Record<string, unknown>;

export function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const timestampPrecisions = {
  'timestamp-millis': 'ms',
  'timestamp-micros': 'us',
  'timestamp-nanos': 'ns',
} as const;

/** Per logical type, how many of its units make a millisecond. */
const perMilli = { ms: 1, us: 1000, ns: 1e6 } as const;

/** What the importer knows of the records that a record default must follow. */
export interface ImportedRecords {
  /** Each record's fields as written, for the defaults of fields a record default leaves out. */
  readonly rawFields: ReadonlyMap<AvroRecord, readonly Raw[]>;
  /** Records that are branches of a record union, and so carry the tag. */
  readonly variants: ReadonlySet<AvroRecord>;
  readonly tag: string;
}

export class AvroDefaults {
  constructor(private readonly records: ImportedRecords) {}

  /** A field default in Avro's JSON encoding, as the wirekit value of the field's schema. */
  read(type: AvroType, value: unknown, where: string, path: Path): unknown {
    const wrong = (what: string): never => refuse(path, `the default of ${where} is not ${what}.`);
    switch (type.type) {
      case 'null':
        return value === null ? null : wrong('null');
      case 'boolean':
        return typeof value === 'boolean' ? value : wrong('a boolean');
      case 'int':
        return Number.isInteger(value) && Math.abs(value as number) <= 2 ** 31 ? value : wrong('an int');
      case 'long': {
        if (typeof value !== 'number' || !Number.isSafeInteger(value)) return wrong('a long');
        const precision = timestampPrecisions[type.logicalType as keyof typeof timestampPrecisions];
        return precision === undefined ? BigInt(value) : new Date(value / perMilli[precision]);
      }
      case 'float':
      case 'double':
        return typeof value === 'number' ? value : wrong('a number');
      case 'string':
        return typeof value === 'string' ? value : wrong('a string');
      case 'bytes':
      case 'fixed': {
        // Avro writes bytes as a string of code points 0-255, one per byte.
        if (typeof value !== 'string' || [...value].some((char) => char.charCodeAt(0) > 0xff))
          return wrong('a string of bytes');
        const bytes = Uint8Array.from(value, (char) => char.charCodeAt(0));
        if (type.type === 'fixed' && bytes.length !== type.size) return wrong(`${type.size} bytes`);
        return type.logicalType === 'decimal' ? decimalText(bytes, type.scale ?? 0) : bytes;
      }
      case 'enum':
        return typeof value === 'string' && type.symbols.includes(value)
          ? value
          : wrong(`a symbol of ${type.name}`);
      case 'array':
        if (!Array.isArray(value)) return wrong('an array');
        return value.map((item, i) => this.read(type.items, item, `${where}[${i}]`, [...path, i]));
      case 'map':
        if (!isRaw(value)) return wrong('an object');
        return Object.fromEntries(
          Object.entries(value).map(([key, item]) => [
            key,
            this.read(type.values, item, `${where}.${key}`, [...path, key]),
          ]),
        );
      case 'union': {
        // Avro reads a union's default by its first branch; a long that is a branch of an
        // untagged union is imported as a number (schema-from-avro.ts).
        const first = this.read(type.branches[0] as AvroType, value, where, path);
        return typeof first === 'bigint' && isUntagged(type) ? Number(first) : first;
      }
      case 'record': {
        if (!isRaw(value)) return wrong(`a ${type.name} record`);
        const rawFields = this.records.rawFields.get(type) ?? [];
        const entries: [string, unknown][] = [];
        if (this.records.variants.has(type)) entries.push([this.records.tag, type.name]);
        type.fields.forEach((field, i) => {
          const inner = `${where}.${field.name}`;
          if (Object.hasOwn(value, field.name))
            entries.push([
              field.name,
              this.read(field.type, value[field.name], inner, [...path, field.name]),
            ]);
          else if (rawFields[i] !== undefined && 'default' in rawFields[i])
            entries.push([field.name, this.read(field.type, rawFields[i].default, inner, path)]);
          else wrong(`a ${type.name} record: it lacks ${field.name}`);
        });
        return Object.fromEntries(entries);
      }
    }
  }
}

/** Whether a union imports as an untagged union: two or more non-null branches, not all records. */
export function isUntagged(union: AvroUnion): boolean {
  const present = union.branches.filter((branch) => branch.type !== 'null');
  return present.length > 1 && !present.every((branch) => branch.type === 'record');
}

/** An Avro decimal's bytes (big-endian two's complement of the unscaled value) as decimal text. */
function decimalText(bytes: Uint8Array, scale: number): string {
  let unscaled = 0n;
  for (const byte of bytes) unscaled = (unscaled << 8n) | BigInt(byte);
  if (bytes.length > 0 && ((bytes[0] as number) & 0x80) !== 0) unscaled -= 1n << BigInt(bytes.length * 8);
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}
