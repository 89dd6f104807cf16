/**
 * Everything the codec derives from a wirekit schema, derived once: its Avro export (the contract
 * for the bytes), the export parsed back, and the write and read plans walked from both. Cached by
 * schema node, so that every codec, container reader and writer for one schema shares them.
 */
import { WirekitBug, WirekitError } from '../../errors/index.js';
import { type AvroSchemaJson, toAvro } from '../../schema/export/avro.js';
import type { Schema } from '../../schema/index.js';
import { assert, deref } from '../../schema/index.js';
import { type AvroType, parseAvroSchema } from './avro-schema.js';
import { type RootReadPlan, readPlanOf } from './decode/resolve.js';
import { Encoder } from './encode/datum.js';
import { writePlanOf } from './encode/write-plan.js';
import type { AvroWriter } from './encode/writer.js';
import { W, type WritePlan } from './plan.js';

export interface SchemaPlans {
  readonly schema: Schema;
  /** `toAvro(schema)`: what the bytes follow, and what containers embed. */
  readonly avro: AvroSchemaJson;
  readonly avroText: string;
  readonly writer: AvroType;
  readonly write: WritePlan;
  readonly read: RootReadPlan;
}

const cache = new WeakMap<Schema, SchemaPlans>();

export function plansOf(schema: Schema): SchemaPlans {
  let plans = cache.get(schema);
  if (plans === undefined) {
    const avro = toAvro(schema);
    const avroText = JSON.stringify(avro);
    const writer = parseAvroSchema(avroText);
    plans = {
      schema,
      avro,
      avroText,
      writer,
      write: rootWritePlan(writer, schema),
      read: readPlanOf(writer, schema),
    };
    cache.set(schema, plans);
  }
  return plans;
}

/** A root that is not an object or union sits in the exporter's wrapper record: write its one field. */
function rootWritePlan(writer: AvroType, schema: Schema): WritePlan {
  const root = deref(schema);
  if (root.kind === 'object' || root.kind === 'union') return writePlanOf(writer, schema);
  if (writer.type !== 'record')
    throw new WirekitBug('Avro: the export of a plain root has no wrapper record');
  const field = writer.fields[0];
  if (field !== undefined) return writePlanOf(field.type, schema);
  if (root.kind !== 'literal')
    throw new WirekitBug('Avro: the wrapper record of a root that is no literal is empty');
  return { op: W.Nothing, value: root.value };
}

/**
 * The read plan for data written with `writerText` (an Avro schema's JSON), into `plans.schema`;
 * `rejectUnknown` refuses writer fields the reader lacks (`unknownKeys: 'reject'`).
 */
export function readPlanFor(plans: SchemaPlans, writerText: string, rejectUnknown = false): RootReadPlan {
  if (writerText === plans.avroText) return plans.read;
  let writer: AvroType;
  try {
    writer = parseAvroSchema(writerText);
  } catch (cause) {
    throw new WirekitError(
      'WK_DECODE_MALFORMED',
      `the embedded Avro schema is invalid: ${(cause as Error).message}`,
      {
        cause,
        offset: 0,
      },
    );
  }
  return readPlanOf(writer, plans.schema, rejectUnknown);
}

/**
 * The generated writer of a schema's write plan (src/codecs/avro/compiled.ts): writes `value` as
 * `encoder.write(plans.write, value)` would, counting depth on `encoder` and handing it the kinds
 * it does not inline.
 */
export type CompiledWrite = (w: AvroWriter, value: unknown, encoder: Encoder) => void;

/**
 * Appends one value to `w`, through `compiled` when given. Errors carry the value's path; a stack
 * overflow (a value far deeper than any limit, with maxDepth raised) becomes a WirekitError like
 * every other failure.
 */
export function writeValue(
  plans: SchemaPlans,
  w: AvroWriter,
  value: unknown,
  maxDepth: number,
  validate: boolean,
  compiled?: CompiledWrite,
): void {
  if (validate) assert(plans.schema, value);
  // Relative to the writer's start, which moves if the buffer grows during this value.
  const offset = w.pos - w.start;
  try {
    const encoder = new Encoder(w, maxDepth);
    if (compiled === undefined) encoder.write(plans.write, value);
    else compiled(w, value, encoder);
  } catch (error) {
    w.pos = w.start + offset;
    // A problem with the value has its path in front already (prependPath, as it unwound).
    if (error instanceof WirekitError) {
      throw new WirekitError(error.code, error.message, {
        path: error.path ?? [],
        format: error.format,
        cause: error.cause,
      });
    }
    if (error instanceof RangeError) {
      throw new WirekitError(
        'WK_ENCODE_UNSUPPORTED',
        'the value nests too deeply to encode (is it cyclic?).',
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}
