/**
 * The proto scalar type each scalar kind is declared as in toProto's layout (proto-layout.ts): the
 * integer type a schema declares (`t.int32({ proto: 'int32' })`), else the kind's default.
 */
import type { Plain, ScalarLeaf, StoredKind } from './plan.js';
import { storedKind } from './plan.js';
import type { ProtoScalar } from './proto-layout.js';

/** The scalar a leaf is declared as: the integer type its schema declares, else its kind's default. */
export function protoScalar(node: ScalarLeaf): ProtoScalar {
  // A json value's proto names a message, not a scalar: without one it is JSON text, a string.
  if (node.kind !== 'json' && 'proto' in node && node.proto !== undefined) return node.proto;
  return protoScalars[storedKind(node)];
}

/** Whether a plain node is a value each format declares as one of its base types. */
export function isScalarLeaf(node: Plain): node is ScalarLeaf {
  return !['array', 'map', 'timestamp', 'enum', 'object', 'union', 'either'].includes(node.kind);
}

/**
 * The proto scalar of each stored kind where the schema declares none: zigzag for signed integers,
 * so that small negative numbers stay small.
 */
const protoScalars: Record<StoredKind, ProtoScalar> = {
  bool: 'bool',
  int8: 'sint32',
  int16: 'sint32',
  int32: 'sint32',
  int64: 'sint64',
  uint8: 'uint32',
  uint16: 'uint32',
  uint32: 'uint32',
  uint64: 'uint64',
  float32: 'float',
  float64: 'double',
  string: 'string',
  bytes: 'bytes',
};
