/**
 * A whole IPC input in memory: the stream format (messages up to the end-of-stream marker) or the
 * file format ("ARROW1", the same messages, a footer with the schema and every block's position,
 * its length, "ARROW1"). Both are told apart by their first bytes; messages in either may have
 * the pre-0.15 framing (ipc-reader.ts).
 */

import type { Data, Struct } from 'apache-arrow';
import { plainBytes } from '../../../util/plain-bytes.js';
import { malformed, trailing, truncated } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { type IpcReader, measureMessage } from './ipc-reader.js';
import { type Block, parseFooter } from './messages.js';

const magic = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"

export function isFile(bytes: Uint8Array): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

/** Calls `onBatch` with each record batch's checked Data, in order. */
export function readIpc(
  bytes: Uint8Array,
  reader: IpcReader,
  limits: DecodeLimits,
  onBatch: (data: Data<Struct>, offset: number) => void,
): void {
  if (bytes.length === 0) throw truncated(0, 'an Arrow stream');
  const input = plainBytes(bytes);
  if (isFile(input)) readFile(input, reader, limits, onBatch);
  else readStream(input, reader, onBatch);
}

function readStream(
  bytes: Uint8Array,
  reader: IpcReader,
  onBatch: (data: Data<Struct>, offset: number) => void,
): void {
  const end = readMessages(bytes, 0, bytes.length, reader, onBatch).end;
  if (end < bytes.length) throw trailing(end, bytes.length);
}

/**
 * Messages from `pos` to the end-of-stream marker; a file's may also end exactly at `stop` (its
 * footer) without one. Without a reader, messages are only measured.
 */
function readMessages(
  bytes: Uint8Array,
  pos: number,
  stop: number,
  reader: IpcReader | undefined,
  onBatch: (data: Data<Struct>, offset: number) => void,
  endOptional = false,
): { end: number; dictionaries: Block[]; batches: Block[] } {
  const dictionaries: Block[] = [];
  const batches: Block[] = [];
  let at = pos;
  for (;;) {
    if (at === stop && endOptional) return { end: at, dictionaries, batches };
    const size = measureMessage(bytes, at, stop, 0);
    if (size === undefined || at + size.total > stop) {
      throw truncated(stop, at === stop ? 'an Arrow stream (no end-of-stream marker)' : 'an Arrow message');
    }
    if (size.metadataLength === 0) return { end: at + size.total, dictionaries, batches };
    const block = {
      offset: at,
      metadataLength: size.prefix + size.metadataLength,
      bodyLength: size.total - size.prefix - size.metadataLength,
    };
    const accepted = reader?.accept(bytes.subarray(at, at + size.total), at, size);
    if (accepted?.kind === 'batch') {
      batches.push(block);
      onBatch(accepted.data, at);
    } else if (accepted?.kind === 'dictionary') {
      dictionaries.push(block);
    }
    at += size.total;
  }
}

function readFile(
  bytes: Uint8Array,
  reader: IpcReader,
  limits: DecodeLimits,
  onBatch: (data: Data<Struct>, offset: number) => void,
): void {
  const length = bytes.length;
  if (length < 8) throw truncated(length, 'the Arrow file magic');
  const view = new DataView(bytes.buffer, bytes.byteOffset, length);
  const footerLength = length >= 18 && endsWithMagic(bytes, length) ? view.getInt32(length - 10, true) : -1;
  const footerStart = length - 10 - footerLength;
  if (footerLength < 0 || footerStart < 8) {
    throw findEnd(bytes);
  }
  const footer = parseFooter(bytes.subarray(footerStart, length - 10), footerStart, limits);
  reader.useSchema(footer, footerStart);
  const read = readMessages(bytes, 8, footerStart, reader, onBatch, true);
  const { dictionaries, batches } = read;
  // Some writers (flechette) put a second end-of-stream marker before the footer.
  let end = read.end;
  while (end + 8 <= footerStart && isEndMarker(bytes, end)) end += 8;
  if (end !== footerStart)
    throw malformed(end, 'bytes lie between the end-of-stream marker and the footer', 'arrow');
  // Readers that seek by the footer must find what this sequential read found.
  if (!sameBlocks(dictionaries, footer.dictionaries) || !sameBlocks(batches, footer.recordBatches))
    throw malformed(footerStart, "the footer's blocks do not match the file's messages", 'arrow');
}

function isEndMarker(bytes: Uint8Array, at: number): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, 8);
  return view.getUint32(0, true) === 0xffffffff && view.getUint32(4, true) === 0;
}

function endsWithMagic(bytes: Uint8Array, length: number): boolean {
  return magic.every((byte, i) => bytes[length - 6 + i] === byte);
}

function sameBlocks(found: readonly Block[], listed: readonly Block[]): boolean {
  return (
    found.length === listed.length &&
    found.every((block, i) => {
      const other = listed[i] as Block;
      return (
        block.offset === other.offset &&
        block.metadataLength === other.metadataLength &&
        block.bodyLength === other.bodyLength
      );
    })
  );
}

/**
 * The error for a file whose last bytes are no trailer: bytes after a complete file are trailing,
 * anything else is a file cut short. The messages are measured (not decoded) up to the
 * end-of-stream marker; a trailer must then follow, footer length and magic agreeing.
 */
function findEnd(bytes: Uint8Array): Error {
  const { end: footerStart } = readMessages(bytes, 8, bytes.length, undefined, () => undefined);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let at = bytes.indexOf(0x41, footerStart + 4); at !== -1; at = bytes.indexOf(0x41, at + 1)) {
    if (at + 6 > bytes.length) break;
    if (endsWithMagic(bytes, at + 6) && view.getInt32(at - 4, true) === at - 4 - footerStart) {
      return at + 6 < bytes.length
        ? trailing(at + 6, bytes.length)
        : malformed(footerStart, 'the footer is invalid', 'arrow');
    }
  }
  return truncated(bytes.length, 'the Arrow file footer');
}
