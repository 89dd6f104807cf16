/**
 * Record batches that are already Arrow, on their way out: a table source's query, or any async
 * iterable of apache-arrow RecordBatches a handler marks with `recordBatches`. The HTTP plugin
 * writes them as an IPC stream without turning them into rows (and reads rows out of them only
 * for the formats that need rows). `arrowIpcStream` marks bytes that are an IPC stream already
 * (an engine that answers in Arrow, such as ClickHouse's `FORMAT ArrowStream`): those pass through
 * untouched.
 */
import type { RecordBatch } from 'apache-arrow';
import { WirekitError } from '../../errors/index.js';
import { matchSchema } from './decode/match.js';
import { IpcWriter } from './encode/ipc-writer.js';
import type { IpcCompression } from './ipc-compression.js';
import type { RootPlan } from './plan.js';

export const recordBatchStream = Symbol.for('wirekit.recordBatchStream');
export const arrowIpcBytes = Symbol.for('wirekit.arrowIpcBytes');

export interface RecordBatchStream extends AsyncIterable<RecordBatch> {
  readonly [recordBatchStream]: true;
}

export interface ArrowIpcBytes extends AsyncIterable<Uint8Array> {
  readonly [arrowIpcBytes]: true;
}

/** Marks an iterable of record batches (all of one schema) as what a streamed route returns. */
export function recordBatches(
  batches: AsyncIterable<RecordBatch> | Iterable<RecordBatch>,
): RecordBatchStream {
  return {
    [recordBatchStream]: true,
    async *[Symbol.asyncIterator]() {
      yield* batches;
    },
  };
}

/** Marks the bytes of an Arrow IPC stream (a fetch body, a Node stream) as what a streamed route returns. */
export function arrowIpcStream(
  chunks: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
): ArrowIpcBytes {
  return {
    [arrowIpcBytes]: true,
    async *[Symbol.asyncIterator]() {
      yield* chunks as AsyncIterable<Uint8Array>;
    },
  };
}

export function isRecordBatchStream(value: unknown): value is RecordBatchStream {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Partial<RecordBatchStream>)[recordBatchStream] === true
  );
}

export function isArrowIpcBytes(value: unknown): value is ArrowIpcBytes {
  return (
    typeof value === 'object' && value !== null && (value as Partial<ArrowIpcBytes>)[arrowIpcBytes] === true
  );
}

/**
 * One IPC stream of `batches`, in their own schema (checked once, on the first batch, against
 * `plan`: what a reader of the codec's schema accepts), each batch written as it comes, then the
 * end-of-stream marker. Cancelling the stream returns the batches' iterator, which ends the query.
 */
export function writeBatches(
  batches: AsyncIterable<RecordBatch>,
  plan: RootPlan | undefined,
  compression?: IpcCompression,
): ReadableStream<Uint8Array> {
  const iterator = batches[Symbol.asyncIterator]();
  let writer: IpcWriter | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) {
          if (writer === undefined) {
            controller.error(
              new WirekitError(
                'WK_ENCODE_UNSUPPORTED',
                'a table stream ended without a batch, so it has no schema to write.',
                { format: 'arrow' },
              ),
            );
            return;
          }
          writer.finish();
          controller.enqueue(writer.take());
          controller.close();
          return;
        }
        const batch = next.value;
        if (writer === undefined) {
          // Passed on as they are: their columns must be the schema's, in its order, none besides.
          if (plan !== undefined)
            matchSchema(plan, batch.schema.fields, 0, { rejectUnknown: true, inOrder: true });
          writer = new IpcWriter(batch.schema, 'stream', undefined, compression);
          writer.start();
        }
        writer.write(batch);
        controller.enqueue(writer.take());
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
