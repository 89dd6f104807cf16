/**
 * Which branch of a reader's either reads a writer's type, in the order Avro's resolution of a
 * union reader tries them (Avro 1.11 spec, "Schema Resolution": the first branch of the reader's
 * union that matches the writer's type), as Avro's Java resolver does it: a record or enum matches
 * only a branch of its name; any other type first the branches of its own Avro type, then those it
 * promotes to (an int read as a long or a float, a string as bytes), each in the reader's order.
 * A branch's Avro type is the one toAvro writes for it (`avroTypeName`), so the two cannot drift.
 */

import { avroTypeName } from '../../../schema/export/avro.js';
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
  const exact = targets.filter((target) => avroTypeName(target) === writer.type);
  const promoted = targets.filter((target) => avroTypeName(target) !== writer.type);
  return { named: false, targets: [...exact, ...promoted] };
}
