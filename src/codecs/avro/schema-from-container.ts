/**
 * The wirekit schema of an Avro Object Container File: the writer's schema its header embeds
 * (avro.schema), imported as schemaFromAvro imports an .avsc. Only the header is read, so the first
 * bytes of a large file are enough; the header's size, entry count and schema text are bounded by
 * the decode limits, and a damaged header ends in the decoder's typed errors (WK_DECODE_MALFORMED,
 * WK_DECODE_TRUNCATED, WK_LIMIT_*), a schema that cannot be imported in WK_SCHEMA_IMPORT.
 */
import type { Schema } from '../../schema/index.js';
import { type DecodeLimits, resolveLimits } from '../core/limits.js';
import { containerSchemaText } from './decode/describe-container.js';
import { schemaFromAvro } from './schema-from-avro.js';

export interface ContainerSchemaOptions {
  /** Bounds on the header read (defaults as the codec's). */
  readonly limits?: Partial<DecodeLimits>;
}

/** The wirekit schema of the values an Avro container file holds, from its embedded writer schema. */
export function schemaFromAvroContainer(bytes: Uint8Array, options: ContainerSchemaOptions = {}): Schema {
  return schemaFromAvro(containerSchemaText(bytes, resolveLimits(options.limits)));
}
