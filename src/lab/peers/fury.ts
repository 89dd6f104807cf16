/**
 * Apache Fury's JavaScript runtime (@furyjs/fury) as a benchmark peer: the fastest JS serializer
 * on record data measured here (../shared/NODE20.md), because it generates a serializer per type,
 * as wirekit's compiled codecs do. Its wire format is its own (xlang Fury), so it is a yardstick,
 * not an interop target. The wirekit schema is mapped onto Fury's type descriptions; kinds Fury
 * cannot express as wirekit holds them are refused rather than approximated.
 */
import type { Schema } from '../../schema/index.js';
import { type PeerLocation, requirePeer } from './optional.js';

type FuryModule = typeof import('@furyjs/fury');
type Description = import('@furyjs/fury').TypeDescription;

function describe(schema: Schema, Type: FuryModule['Type']): Description {
  switch (schema.kind) {
    case 'bool':
      return Type.bool();
    case 'int8':
    case 'int16':
    case 'int32':
      return Type.int32();
    case 'uint8':
    case 'uint16':
      return Type.int32();
    case 'uint32':
      // Fury's int32 wraps values past 2^31; its uint32 keeps them as numbers.
      return Type.uint32();
    case 'int64':
    case 'uint64':
      // Fury 0.5.9's int64 garbles values past 2^31 (2^31 - 1 reads back as 2146426815; larger
      // ones fail its hash check). A 64-bit integer held as a number is within 2^53, which a
      // double carries exactly.
      return schema.as === 'number' ? Type.double() : Type.int64();
    case 'float32':
      return Type.float();
    case 'float64':
      return Type.double();
    case 'string':
    case 'enum':
    case 'decimal':
      return Type.string();
    case 'bytes':
      return Type.binary();
    case 'timestamp':
      return Type.timestamp();
    case 'array':
      return Type.array(describe(schema.items, Type));
    case 'object':
      return Type.object(
        schema.name,
        Object.fromEntries(schema.fields.map((field) => [field.name, describe(field.schema, Type)])),
      );
    case 'map':
      // Fury's map takes a JavaScript Map; a caller converts string-keyed objects first.
      return Type.map(describe(schema.keys, Type), describe(schema.values, Type));
    case 'optional':
    case 'nullable':
      return describe(schema.inner, Type);
    case 'ref':
      return describe(schema.resolve(), Type);
    default:
      throw new Error(`Fury peer: no faithful mapping for the ${schema.kind} kind`);
  }
}

/**
 * Fury's serialize/deserialize for values of `schema` (one registered serializer). Fury is a dev
 * dependency, so an installed wirekit-ts may lack it: PeerUnavailableError then says how to add it.
 */
export function furyFor(
  schema: Schema,
  location: PeerLocation = {},
): {
  encode(value: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
} {
  const module = requirePeer('fury', location) as FuryModule & {
    default: new (options: object) => FuryInstance;
  };
  const fury = new module.default({});
  const { serialize, deserialize } = fury.registerSerializer(describe(schema, module.Type));
  return { encode: (value) => serialize(value as never), decode: (bytes) => deserialize(bytes as never) };
}

interface FuryInstance {
  registerSerializer(description: Description): {
    serialize(value: never): Uint8Array;
    deserialize(bytes: never): unknown;
  };
}
