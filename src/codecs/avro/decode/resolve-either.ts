/**
 * Which branch of a reader's either reads a writer's type, in the order Avro's resolution of a
 * union reader tries them (Avro 1.11 spec, "Schema Resolution": the first branch of the reader's
 * union that matches the writer's type), as Avro's Java resolver does it: a record or enum matches
 * only a branch of its name; any other type first the branches of its own Avro type, then those it
 * promotes to (an int read as a long or a float, a string as bytes), each in the reader's order.
 */
import type { EitherSchema, Schema } from '../../../schema/index.js';
import { deref } from '../../../schema/index.js';
import type { AvroType } from '../avro-schema.js';

type Concrete = Exclude<Schema, { kind: 'ref' }>;

export interface EitherCandidates {
  /** The writer's type is named: `targets` holds the one branch of its name, if any. */
  readonly named: boolean;
  readonly targets: readonly Concrete[];
}

/** The branches to try for `writer`; `matchesName` says whether a branch is the named writer's. */
export function eitherCandidates(
  writer: AvroType,
  reader: EitherSchema,
  matchesName: (target: Concrete) => boolean,
): EitherCandidates {
  const targets = reader.branches.map((branch) => deref(branch) as Concrete);
  if (writer.type === 'record' || writer.type === 'enum') {
    const target = targets.find(matchesName);
    return { named: true, targets: target === undefined ? [] : [target] };
  }
  const exact = targets.filter((target) => avroTypeOf(target) === writer.type);
  const promoted = targets.filter((target) => avroTypeOf(target) !== writer.type);
  return { named: false, targets: [...exact, ...promoted] };
}

/** The Avro type toAvro gives a branch (export/avro.ts): its primitive or complex type's name. */
function avroTypeOf(schema: Concrete): string {
  switch (schema.kind) {
    case 'bool':
      return 'boolean';
    case 'int8':
    case 'int16':
    case 'int32':
    case 'uint8':
    case 'uint16':
      return 'int';
    case 'uint32':
    case 'int64':
    case 'uint64':
    case 'timestamp':
      return 'long';
    case 'float32':
      return 'float';
    case 'float64':
      return 'double';
    case 'decimal':
      return schema.precision !== undefined && schema.scale !== undefined ? 'bytes' : 'string';
    case 'literal':
      return typeof schema.value === 'string'
        ? 'string'
        : typeof schema.value === 'boolean'
          ? 'boolean'
          : 'double';
    case 'json':
      return 'string';
    case 'object':
    case 'union':
      return 'record';
    case 'map':
      return schema.keys.kind === 'string' ? 'map' : 'array';
    default:
      return schema.kind;
  }
}
