/**
 * What both ends of a wirekit socket agree on, with nothing of Node in it (the client bundles for
 * a browser): the formats a socket speaks, which frame kind each travels in, and the close codes.
 */
import type { FormatName } from '../../codecs/core/codec.js';
import { WirekitError } from '../../errors/index.js';

/** The formats a socket may speak: those with one message per frame (no table formats). */
export type SocketFormat = Extract<FormatName, 'json' | 'msgpack' | 'cbor' | 'protobuf' | 'avro'>;

export const socketFormats: readonly SocketFormat[] = ['json', 'msgpack', 'cbor', 'protobuf', 'avro'];

export function isSocketFormat(name: string): name is SocketFormat {
  return (socketFormats as readonly string[]).includes(name);
}

/** JSON goes in text frames, readable in any console; the binary formats in binary frames. */
export function frameKindOf(format: SocketFormat): 'text' | 'binary' {
  return format === 'json' ? 'text' : 'binary';
}

/** RFC 6455 §7.4.1 close codes wirekit sends, each with a wirekit error code as the reason. */
export const closeCodes = {
  normal: 1000,
  /** The server is shutting down. */
  goingAway: 1001,
  /** A frame did not decode or validate, or came in the wrong frame kind. */
  invalidPayload: 1007,
  /** The peer reads too slowly (WK_WS_SLOW_CONSUMER). */
  policyViolation: 1008,
  /** A frame over the size limit. */
  tooBig: 1009,
  /** The route's handler failed (WK_WS_HANDLER_FAILED). */
  internalError: 1011,
  /**
   * What the client closes with for a server frame that does not decode: WHATWG sockets may send
   * only 1000 and 3000-4999, so 1007's meaning in the private range.
   */
  clientInvalidPayload: 4007,
  /** What the client closes with for a server frame over its `maxFrameBytes`: 1009 in the private range. */
  clientTooBig: 4009,
} as const;

/** One message's payload as bytes: JSON's text frames arrive as strings in a browser. */
const encoder = new TextEncoder();
export function payloadBytes(data: string | ArrayBuffer | ArrayBufferView): Uint8Array {
  if (typeof data === 'string') return encoder.encode(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** The counts both ends keep of messages: each way with their payload bytes, and those dropped or skipped. */
export function messageCounts() {
  return { received: 0, sent: 0, receivedBytes: 0, sentBytes: 0, dropped: 0, skipped: 0 };
}

/**
 * A read-only live view of a counts object, for the stats both ends expose: readers see each count
 * as it is now and cannot change it; `extra` adds counts derived on read (the connections open).
 */
export function countsView<C extends Record<string, number>, E extends Record<string, () => number>>(
  counts: C,
  extra?: E,
): Readonly<C & { [K in keyof E]: number }> {
  const view = {};
  for (const key of Object.keys(counts))
    Object.defineProperty(view, key, { enumerable: true, get: () => counts[key] });
  for (const [key, read] of Object.entries(extra ?? {}))
    Object.defineProperty(view, key, { enumerable: true, get: read });
  return view as Readonly<C & { [K in keyof E]: number }>;
}

/** A limit option of either end: a positive integer, or WK_OPTIONS_INVALID when the socket is made. */
export function positiveOption(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new WirekitError('WK_OPTIONS_INVALID', `${name} must be a positive integer, got ${value}.`);
  return value;
}
