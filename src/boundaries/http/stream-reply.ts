/**
 * Streamed replies: rows from an iterable, async iterable or stream, written as they come, with the
 * memory of a batch rather than of the result.
 *
 * The pieces, each pulling from the one before only when the socket wants more (so a slow client
 * holds the producer back, and a client that leaves stops it: destroying the Node stream returns
 * every iterator up the chain, whose `finally` blocks run):
 *   rows → the codec's sequence framing (or the list as one value around it, streamed-lists.ts)
 *   → coalesce → Node Readable → socket.
 *
 * Coalescing matters: most formats write one small chunk per row, and a socket write per row
 * would cost far more than the encoding. Chunks are gathered up to 64 KiB, and sent sooner when
 * the producer pauses (a slow query) so that rows already encoded do not wait.
 */
import { Readable } from 'node:stream';
import {
  type ArrowIpcBytes,
  isArrowIpcBytes,
  isRecordBatchStream,
  type RecordBatchStream,
} from '../../codecs/arrow/batch-stream.js';
import type { ArrowCodec } from '../../codecs/arrow/index.js';
import type { Codec } from '../../codecs/core/codec.js';
import { chunksOf } from '../../codecs/core/stream.js';
import { factsOf } from '../../codecs/formats.js';
import type { StreamKind } from './route.js';
import { streamedList } from './streamed-lists.js';

/**
 * What a streaming handler may return: rows, or a table that is Arrow already (a table source's
 * query, `recordBatches(...)`, or IPC bytes marked by `arrowIpcStream(...)`).
 */
export type RowSource<Row> =
  | Iterable<Row>
  | AsyncIterable<Row>
  | ReadableStream<Row>
  | RecordBatchStream
  | ArrowIpcBytes;

const flushBytes = 64 * 1024;
/** How long encoded bytes may wait for more before they are sent anyway. */
const flushDelayMs = 10;

function iterate<Row>(source: RowSource<Row>): Iterable<Row> | AsyncIterable<Row> {
  if (Symbol.asyncIterator in source || Symbol.iterator in source) {
    return source as Iterable<Row> | AsyncIterable<Row>;
  }
  return Readable.fromWeb(source as import('node:stream/web').ReadableStream<Row>, { objectMode: true });
}

/**
 * Gathers chunks into writes of about `flushBytes`; sends what it holds when the source has made
 * it wait `flushDelayMs`. One timer per gathered write, not per chunk.
 */
async function* coalesce(chunks: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  let pending: Uint8Array[] = [];
  let size = 0;
  let deadline: Promise<'late'> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const take = (): Uint8Array => {
    const out = pending.length === 1 ? (pending[0] as Uint8Array) : Buffer.concat(pending, size);
    pending = [];
    size = 0;
    deadline = undefined;
    clearTimeout(timer);
    return out;
  };
  // The next chunk is asked for before the current one is handed on, so that encoding overlaps
  // the socket write; it may fail while this generator waits at a yield (a query that failed),
  // before anything awaits it, so each read is marked handled when made: it is awaited, or dropped
  // when the consumer leaves.
  const read = (): Promise<IteratorResult<Uint8Array>> => {
    const promise = chunks.next();
    promise.catch(() => {});
    return promise;
  };
  try {
    let next = read();
    for (;;) {
      const result = deadline === undefined ? await next : await Promise.race([next, deadline]);
      if (result === 'late') {
        yield take();
        continue;
      }
      if (result.done) break;
      next = read();
      if (result.value.length === 0) continue;
      pending.push(result.value);
      size += result.value.length;
      if (size >= flushBytes) yield take();
      else if (deadline === undefined) {
        deadline = new Promise((resolve) => {
          timer = setTimeout(resolve, flushDelayMs, 'late');
        });
      }
    }
    if (size > 0) yield take();
  } finally {
    clearTimeout(timer);
    await chunks.return?.();
  }
}

/**
 * Each batch of rows in the codec's framing for sequences, written at once: rows that come a batch
 * at a time need no trip through a stream per row (which cost ten times the encoding). Sequences
 * of every format but Avro join by concatenation.
 */
async function* batchSequences(
  codec: Codec<unknown>,
  batches: AsyncIterable<unknown[]>,
): AsyncGenerator<Uint8Array> {
  for await (const rows of batches) yield codec.encodeSequence(rows);
}

/**
 * The reply body for a streamed route: a Node Readable of the encoded rows. A table that is Arrow
 * already goes out as its IPC stream when Arrow was negotiated, batch by batch and without rows
 * (the bytes of `arrowIpcStream` untouched); other formats read its rows with `tables`, the
 * route's Arrow codec, as any Arrow client would, a batch at a time.
 */
export function streamRows(kind: StreamKind, source: RowSource<unknown>, tables: ArrowCodec): Readable {
  let chunks: AsyncIterable<Uint8Array>;
  if (isRecordBatchStream(source) || isArrowIpcBytes(source)) {
    const ipc = isArrowIpcBytes(source) ? source : tables.encodeBatches(source);
    const sequences = factsOf(kind.codec.format).sequences;
    // Arrow's sequence is the IPC stream itself.
    if (sequences === 'table') chunks = isArrowIpcBytes(ipc) ? ipc : chunksOf(ipc, 'cancel');
    // An Avro container has one header, so its sequences do not join: its rows go one by one.
    else if (sequences === 'container')
      chunks = chunksOf(kind.codec.encodeStream(tables.decodeStream(ipc)), 'cancel');
    else chunks = batchSequences(kind.codec, tables.decodeRowBatches(ipc));
  } else chunks = chunksOf(kind.codec.encodeStream(iterate(source)), 'cancel');
  const encoded = kind.kind === 'sequence' ? chunks : streamedList(kind.kind, chunks);
  return Readable.from(coalesce(encoded[Symbol.asyncIterator]()), {
    objectMode: false,
    highWaterMark: flushBytes,
  });
}
