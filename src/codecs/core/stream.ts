/**
 * Streaming plumbing shared by every codec: values out as a byte stream with backpressure, and
 * byte chunks in, cut into frames however the network split them.
 */
import { WirekitError } from '../../errors/index.js';
import { joinBytes } from '../../util/join-bytes.js';
import type { DecodeLimits } from './limits.js';

/**
 * How many bytes a synchronous source's values are gathered into per chunk: a chunk per value
 * would cost a promise turn and a stream hand-off per row, which outweighs the encoding of a small
 * row several times over.
 */
const syncChunkBytes = 64 * 1024;

/**
 * A byte stream that pulls the next value only when the consumer wants more, so a slow reader
 * holds the producer back instead of letting encoded output pile up in memory. Cancelling the
 * stream ends the source iterator (its `finally` blocks run). Values from a synchronous source
 * are taken synchronously and sent in chunks of about 64 KiB; an async source's values are sent
 * as each arrives.
 */
export function encodeValues<T>(
  values: Iterable<T> | AsyncIterable<T>,
  encodeOne: (value: T) => Uint8Array,
  framing: { readonly head?: () => Uint8Array; readonly tail?: () => Uint8Array } = {},
): ReadableStream<Uint8Array> {
  const isAsync = Symbol.asyncIterator in values;
  const iterator = isAsync
    ? (values as AsyncIterable<T>)[Symbol.asyncIterator]()
    : (values as Iterable<T>)[Symbol.iterator]();
  let started = false;
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    const tail = framing.tail?.();
    if (tail !== undefined && tail.length > 0) controller.enqueue(tail);
    controller.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          const head = framing.head?.();
          if (head !== undefined && head.length > 0) {
            controller.enqueue(head);
            return;
          }
        }
        if (isAsync) {
          const next = await iterator.next();
          if (next.done) finish(controller);
          else controller.enqueue(encodeOne(next.value));
          return;
        }
        const parts: Uint8Array[] = [];
        let size = 0;
        const flush = () => {
          if (parts.length > 0)
            controller.enqueue(parts.length === 1 ? (parts[0] as Uint8Array) : joinBytes(parts, size));
        };
        try {
          while (size < syncChunkBytes) {
            const next = (iterator as Iterator<T>).next();
            if (next.done) {
              flush();
              finish(controller);
              return;
            }
            const bytes = encodeOne(next.value);
            parts.push(bytes);
            size += bytes.length;
          }
        } catch (error) {
          flush(); // what was encoded before the failure still reaches the reader, then the error
          throw error;
        }
        flush();
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}

/**
 * Reads a web stream or any async iterable of chunks. A web stream's reader is released when the
 * loop ends, or cancelled with `onEnd: 'cancel'` (which also ends the stream's producer: what a
 * reply does once its client is gone).
 */
export async function* chunksOf(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  onEnd: 'release' | 'cancel' = 'release',
): AsyncGenerator<Uint8Array> {
  if (Symbol.asyncIterator in source) {
    yield* source as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    if (onEnd === 'cancel') await reader.cancel();
    else reader.releaseLock();
  }
}

/**
 * Measures the first frame in `buffer`: its total length in bytes (header included), or undefined
 * when more bytes are needed to know. Throws a WirekitError when the bytes cannot start a frame.
 */
export type FrameMeasure = (buffer: Uint8Array) => number | undefined;

/**
 * Cuts a chunk stream into frames and decodes each. Pending bytes never exceed `maxInputBytes`: a
 * frame that claims to be larger fails at once instead of being buffered.
 */
export async function* decodeFrames<T>(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  measure: FrameMeasure,
  decodeOne: (frame: Uint8Array) => T,
  limits: DecodeLimits,
  /** For framings whose last frame may lack its terminator (an NDJSON file without a final newline). */
  options: { readonly decodeTail?: (tail: Uint8Array) => T } = {},
): AsyncGenerator<T> {
  let pending: Uint8Array = new Uint8Array(0);
  let consumed = 0;
  for await (const chunk of chunksOf(source)) {
    pending = pending.length === 0 ? chunk : concat(pending, chunk);
    for (;;) {
      if (pending.length === 0) break;
      const length = measure(pending);
      if (length === undefined) {
        if (pending.length > limits.maxInputBytes) throw tooLarge(pending.length, limits);
        break;
      }
      if (length > limits.maxInputBytes) throw tooLarge(length, limits);
      if (length > pending.length) break;
      yield withOffset(consumed, () => decodeOne(pending.subarray(0, length)));
      consumed += length;
      pending = pending.subarray(length);
    }
  }
  if (pending.length > 0 && options.decodeTail !== undefined) {
    const tail = pending;
    yield withOffset(consumed, () => (options.decodeTail as (tail: Uint8Array) => T)(tail));
  } else if (pending.length > 0) {
    throw new WirekitError(
      'WK_DECODE_TRUNCATED',
      `the stream ends inside a value (${pending.length} bytes pending).`,
      {
        offset: consumed,
      },
    );
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function tooLarge(length: number, limits: DecodeLimits): WirekitError {
  return new WirekitError(
    'WK_LIMIT_INPUT',
    `a stream frame of ${length} bytes exceeds maxInputBytes (${limits.maxInputBytes}).`,
  );
}

/** Rebases a frame decoder's error offset onto the whole stream. */
export function withOffset<T>(base: number, body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof WirekitError && error.offset !== undefined && base > 0) {
      throw new WirekitError(error.code, error.message, {
        path: error.path,
        offset: base + error.offset,
        format: error.format,
        cause: error,
      });
    }
    throw error;
  }
}
