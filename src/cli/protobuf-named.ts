/**
 * Protobuf bytes read by the message a .proto declares, as `protoc --decode` reads them: for
 * `wirekit inspect --registry` when the registry's schema is a .proto file (parsed by the
 * registry's own reader, compatibility/protobuf-schema.ts). Fields are named and read as their
 * declared types: sint zigzag-decoded, int32 and int64 signed, enums by name, float and double
 * from their bytes, strings as text, bytes as base64, messages, groups and maps nested, packed
 * repeated fields unpacked. 64-bit integers are JSON numbers where exact, else digit strings.
 *
 * The .proto describes the bytes only if the producer used it: a field the message does not
 * declare is shown by its number as protobuf-raw.ts shows it, and a declared field whose wire type
 * is not its type's is shown raw too and counted (`mismatched`), so that the output never claims a
 * reading the bytes do not support. Messages nested deeper than `maxDepth` are shown as base64.
 */
import type { ProtoFieldType, ProtoMessage } from '../boundaries/events/inspect.js';
import {
  FIXED32,
  FIXED64,
  LEN,
  readPackedVarints,
  readWireFields,
  START_GROUP,
  VARINT,
  type WireField,
} from '../codecs/protobuf/inspect.js';
import type { JsonValue } from '../schema/index.js';
import { toBase64 } from '../util/base64.js';
import { fixedHex, integerJson, rawMessage } from './protobuf-raw.js';

export interface NamedDecodeResult {
  readonly value: { [name: string]: JsonValue };
  /** Fields whose wire type was not their declared type's (shown raw). */
  readonly mismatched: number;
}

const varintScalars = new Set(['int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'bool']);
const fixed32Scalars = new Set(['fixed32', 'sfixed32', 'float']);
const fixed64Scalars = new Set(['fixed64', 'sfixed64', 'double']);

class Reader {
  mismatched = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly maxDepth: number,
  ) {}

  message(fields: readonly WireField[], type: ProtoMessage, depth: number): { [name: string]: JsonValue } {
    const declared = new Map(type.fields.map((field) => [field.number, field]));
    const values = new Map<number, JsonValue[]>();
    const unknown: WireField[] = [];
    for (const wire of fields) {
      const field = declared.get(wire.number);
      if (field === undefined) {
        unknown.push(wire);
        continue;
      }
      if (field.type.kind === 'map' && wire.wireType !== LEN) {
        // Not a map entry: shown by number with the unknown fields (a map holds entries only).
        this.mismatched++;
        unknown.push(wire);
        continue;
      }
      const read = this.value(wire, field.type, depth);
      const list = values.get(field.number) ?? [];
      const repeated = field.label === 'repeated' || field.type.kind === 'map';
      // A field that is not repeated keeps its last value, as Protobuf parsers do.
      values.set(field.number, repeated ? [...list, ...read] : read.slice(-1));
    }
    const out: [string, JsonValue][] = [];
    for (const field of type.fields) {
      const list = values.get(field.number);
      if (list === undefined) continue;
      if (field.type.kind === 'map')
        out.push([field.name, Object.fromEntries(list as [string, JsonValue][])]);
      else out.push([field.name, field.label === 'repeated' ? list : (list[0] as JsonValue)]);
    }
    if (unknown.length > 0) {
      const raw = this.raw(unknown, depth);
      for (const [number, value] of Object.entries(raw)) out.push([number, value]);
    }
    return Object.fromEntries(out);
  }

  /** The values one wire field holds for its declared type: several for a packed field, map entries as [key, value]. */
  private value(wire: WireField, type: ProtoFieldType, depth: number): JsonValue[] {
    switch (type.kind) {
      case 'scalar':
        return this.scalar(wire, type.scalar);
      case 'enum': {
        const names = new Map(Array.from(type.type.values, ([name, number]) => [number, name]));
        const numbers = this.varints(wire);
        if (numbers === undefined) return [this.mismatch(wire)];
        return numbers.map((n) => {
          const number = Number(BigInt.asIntN(32, n));
          return names.get(number) ?? number;
        });
      }
      case 'message':
      case 'group': {
        if (type.kind === 'group' && wire.wireType === START_GROUP)
          return [this.nested(() => wire.fields, type.type, depth)];
        if (type.kind === 'message' && wire.wireType === LEN) {
          if (depth >= this.maxDepth) return [toBase64(this.bytes.subarray(wire.from, wire.to))];
          return [
            this.nested(
              () => readWireFields(this.bytes, wire.from, wire.to, depth + 1, this.maxDepth),
              type.type,
              depth,
            ),
          ];
        }
        return [this.mismatch(wire)];
      }
      case 'map': {
        // message() sends a map field of another wire type to the unknown fields before it gets here.
        if (wire.wireType !== LEN) return [this.mismatch(wire)];
        const entry = readWireFields(this.bytes, wire.from, wire.to, depth + 1, this.maxDepth);
        let key: JsonValue = type.key.kind === 'scalar' && type.key.scalar === 'string' ? '' : 0;
        let value: JsonValue | undefined;
        for (const part of entry) {
          if (part.number === 1) key = this.value(part, type.key, depth + 1).at(-1) ?? key;
          else if (part.number === 2) value = this.value(part, type.value, depth + 1).at(-1);
        }
        return [[String(key), value ?? null] as unknown as JsonValue];
      }
    }
  }

  private nested(fields: () => readonly WireField[], type: ProtoMessage, depth: number): JsonValue {
    return this.message(fields(), type, depth + 1);
  }

  private scalar(wire: WireField, scalar: string): JsonValue[] {
    if (scalar === 'string' || scalar === 'bytes') {
      if (wire.wireType !== LEN) return [this.mismatch(wire)];
      const slice = this.bytes.subarray(wire.from, wire.to);
      if (scalar === 'bytes') return [toBase64(slice)];
      try {
        return [utf8.decode(slice)];
      } catch {
        return [this.mismatch(wire)];
      }
    }
    if (varintScalars.has(scalar)) {
      const values = this.varints(wire);
      return values === undefined ? [this.mismatch(wire)] : values.map((v) => varintValue(v, scalar));
    }
    const size = fixed32Scalars.has(scalar) ? 4 : fixed64Scalars.has(scalar) ? 8 : 0;
    const chunks = size === 0 ? undefined : this.fixed(wire, size);
    return chunks === undefined ? [this.mismatch(wire)] : chunks.map((chunk) => fixedValue(chunk, scalar));
  }

  /** A varint field's value, or a packed run of them. */
  private varints(wire: WireField): bigint[] | undefined {
    if (wire.wireType === VARINT) return [wire.value];
    if (wire.wireType !== LEN) return undefined;
    return readPackedVarints(this.bytes, wire.from, wire.to);
  }

  /** A fixed-size field's bytes, or a packed run of them. */
  private fixed(wire: WireField, size: number): Uint8Array[] | undefined {
    if ((wire.wireType === FIXED32 && size === 4) || (wire.wireType === FIXED64 && size === 8))
      return [wire.bytes];
    if (wire.wireType !== LEN || (wire.to - wire.from) % size !== 0) return undefined;
    const out: Uint8Array[] = [];
    for (let at = wire.from; at < wire.to; at += size) out.push(this.bytes.subarray(at, at + size));
    return out;
  }

  private mismatch(wire: WireField): JsonValue {
    this.mismatched++;
    return Object.values(this.raw([wire]))[0] as JsonValue;
  }

  /** Fields as protobuf-raw.ts shows them, by number. */
  private raw(fields: readonly WireField[], depth = 0): { [number: string]: JsonValue } {
    return rawMessage(this.bytes, fields, depth, this.maxDepth) as { [number: string]: JsonValue };
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The message's fields, named and typed by `type`. */
export function decodeProtobufByMessage(
  bytes: Uint8Array,
  type: ProtoMessage,
  options: { readonly maxDepth?: number } = {},
): NamedDecodeResult {
  const maxDepth = options.maxDepth ?? 32;
  const reader = new Reader(bytes, maxDepth);
  const value = reader.message(readWireFields(bytes, 0, bytes.length, 0, maxDepth), type, 0);
  return { value, mismatched: reader.mismatched };
}

function varintValue(value: bigint, scalar: string): JsonValue {
  switch (scalar) {
    case 'bool':
      return value !== 0n;
    case 'int32':
      return Number(BigInt.asIntN(32, value));
    case 'uint32':
      return Number(BigInt.asUintN(32, value));
    case 'sint32':
    case 'sint64': {
      const decoded = (value >> 1n) ^ -(value & 1n);
      return scalar === 'sint32' ? Number(BigInt.asIntN(32, decoded)) : integerJson(decoded);
    }
    case 'int64':
      return integerJson(BigInt.asIntN(64, value));
    default:
      return integerJson(value);
  }
}

function fixedValue(bytes: Uint8Array, scalar: string): JsonValue {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (scalar) {
    case 'fixed32':
      return view.getUint32(0, true);
    case 'sfixed32':
      return view.getInt32(0, true);
    case 'float':
      return finite(view.getFloat32(0, true));
    case 'double':
      return finite(view.getFloat64(0, true));
    case 'fixed64':
      return integerJson(view.getBigUint64(0, true));
    case 'sfixed64':
      return integerJson(view.getBigInt64(0, true));
    default:
      return fixedHex(bytes);
  }
}

/** JSON has no NaN or infinities: they are shown as their names, as the readable JSON of inspect does. */
function finite(value: number): JsonValue {
  return Number.isFinite(value) ? value : String(value);
}
