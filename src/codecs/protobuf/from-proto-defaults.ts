/**
 * A proto2 field's `[default = …]` as a wirekit field default: the constant the .proto reader read,
 * as a value of the field's schema. The reader has checked it against the field's type (a number
 * for a number, a value name for an enum); undefined here means a constant this cannot give as
 * that schema's value, which the importer refuses.
 */
import type { ProtoConstant } from '../../schema/proto/index.js';
import type { Schema } from '../../schema/types.js';

export function defaultValue(constant: ProtoConstant, schema: Schema): unknown {
  switch (schema.kind) {
    case 'bool':
      return constant.kind === 'identifier' && (constant.value === 'true' || constant.value === 'false')
        ? constant.value === 'true'
        : undefined;
    case 'int32':
    case 'uint32':
      return constant.kind === 'integer' ? Number(constant.value) : undefined;
    case 'int64':
    case 'uint64':
      if (constant.kind !== 'integer') return undefined;
      return schema.as === 'number' ? Number(constant.value) : BigInt(constant.value);
    case 'float32':
    case 'float64':
      return floatOf(constant);
    case 'string':
      return constant.kind === 'string' && constant.octets === undefined ? constant.value : undefined;
    case 'bytes':
      if (constant.kind !== 'string') return undefined;
      return constant.octets === undefined
        ? new TextEncoder().encode(constant.value)
        : Uint8Array.from(constant.octets, (char) => char.charCodeAt(0));
    case 'enum':
      return constant.kind === 'identifier' && schema.members.includes(constant.value)
        ? constant.value
        : undefined;
    default:
      return undefined;
  }
}

function floatOf(constant: ProtoConstant): number | undefined {
  switch (constant.kind) {
    case 'integer':
      return Number(constant.value);
    case 'float':
      return constant.value;
    case 'identifier': {
      const magnitude = constant.value === 'inf' ? Number.POSITIVE_INFINITY : Number.NaN;
      if (constant.value !== 'inf' && constant.value !== 'nan') return undefined;
      return constant.negative ? -magnitude : magnitude;
    }
    default:
      return undefined;
  }
}
