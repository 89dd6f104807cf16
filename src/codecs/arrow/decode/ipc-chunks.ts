/**
 * IPC from chunks as they arrive. A stream is cut into messages with their prefix (8 bytes, or 4
 * in pre-0.15 framing) and the metadata's body length, and each record batch is handed on as soon as its last byte is in, so
 * memory holds one message at a time. A file is random access (its schema may be only in the
 * footer, at the very end), so it is gathered whole, up to maxInputBytes, and then read.
 */
import type { Data, Struct } from 'apache-arrow';
import { WirekitError } from '../../../errors/index.js';
import { plainBytes } from '../../../util/plain-bytes.js';
import { trailing, truncated } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { chunksOf } from '../../core/stream.js';
import { isFile, readIpc } from './ipc-bytes.js';
import { type IpcReader, measureMessage, type Prefix, readPrefix } from './ipc-reader.js';

/**
 * Pending bytes as a list of chunks. Only the bytes a decision needs are joined (the 8-byte prefix
 * and the metadata, then the whole message once), so a message arriving in many small chunks is
 * copied once, not once per chunk.
 */
class ChunkQueue {
  private chunks: Uint8Array[] = [];
  /** Chunks before this index are used up (shifting each would be quadratic in the chunk count). */
  private first = 0;
  length = 0;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(plainBytes(chunk));
    this.length += chunk.length;
  }

  /** The first `count` bytes (at most `length`) as one array. */
  peek(count: number): Uint8Array {
    const head = this.chunks[this.first];
    if (head !== undefined && head.length >= count) return head.subarray(0, count);
    const out = new Uint8Array(Math.min(count, this.length));
    let at = 0;
    for (let i = this.first; i < this.chunks.length && at < out.length; i++) {
      const part = (this.chunks[i] as Uint8Array).subarray(0, out.length - at);
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  take(count: number): Uint8Array {
    const out = this.peek(count);
    let left = count;
    while (left > 0) {
      const chunk = this.chunks[this.first] as Uint8Array;
      if (chunk.length <= left) {
        this.first++;
        left -= chunk.length;
      } else {
        this.chunks[this.first] = chunk.subarray(left);
        left = 0;
      }
    }
    if (this.first > 64 && this.first * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.first);
      this.first = 0;
    }
    this.length -= count;
    return out;
  }
}

function tooLarge(size: number, limits: DecodeLimits): WirekitError {
  return new WirekitError(
    'WK_LIMIT_INPUT',
    `an Arrow message of ${size} bytes exceeds maxInputBytes (${limits.maxInputBytes}).`,
  );
}

/** Yields each record batch's Data (and its offset) as the chunks bring it in. */
export async function* readIpcChunks(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  reader: IpcReader,
  limits: DecodeLimits,
): AsyncGenerator<{ readonly data: Data<Struct>; readonly offset: number }> {
  const queue = new ChunkQueue();
  let consumed = 0;
  let ended = false;
  let file = false;
  let prefix: Prefix | undefined;
  let total = -1;
  // The messages the queue holds whole. Each is measured once: its prefix, then its metadata,
  // then its body is awaited.
  function* messages(): Generator<{ readonly data: Data<Struct>; readonly offset: number }> {
    while (!ended) {
      if (prefix === undefined) {
        const first = queue.peek(8);
        prefix = readPrefix(first, 0, first.length, consumed);
        if (prefix === undefined) return;
        const head = prefix.prefix + prefix.metadataLength;
        if (head > limits.maxInputBytes) throw tooLarge(head, limits);
        total = prefix.metadataLength === 0 ? prefix.prefix : -1;
      }
      if (total < 0) {
        const head = prefix.prefix + prefix.metadataLength;
        if (queue.length < head) return;
        total = measureMessage(queue.peek(head), 0, head, consumed)?.total ?? head;
        if (total > limits.maxInputBytes) throw tooLarge(total, limits);
      }
      if (queue.length < total) return;
      const accepted = reader.accept(queue.take(total), consumed, prefix);
      if (accepted.kind === 'eos') ended = true;
      else if (accepted.kind === 'batch') yield { data: accepted.data, offset: consumed };
      consumed += total;
      prefix = undefined;
      if (ended && queue.length > 0) throw trailing(consumed, consumed + queue.length);
    }
  }
  for await (const chunk of chunksOf(source)) {
    if (ended && chunk.length > 0) throw trailing(consumed, consumed + chunk.length);
    queue.push(chunk);
    // Six bytes tell a file ("ARROW1") from a stream, whose first word may be a bare length.
    if (consumed === 0 && queue.length < 6) continue;
    if (!file && consumed === 0 && isFile(queue.peek(6))) file = true;
    if (file) {
      if (queue.length > limits.maxInputBytes) throw tooLarge(queue.length, limits);
      continue;
    }
    yield* messages();
  }
  // An input of fewer than six bytes was held back above: it can only be a bare end marker.
  if (!file) yield* messages();
  if (file) {
    const whole = queue.take(queue.length);
    const batches: { data: Data<Struct>; offset: number }[] = [];
    readIpc(whole, reader, limits, (data, offset) => batches.push({ data, offset }));
    yield* batches;
    return;
  }
  if (!ended) {
    throw truncated(
      consumed + queue.length,
      consumed + queue.length === 0 ? 'an Arrow stream' : 'an Arrow stream (no end-of-stream marker)',
    );
  }
}
