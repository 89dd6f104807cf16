/**
 * Length-prefixed framing for formats whose messages do not delimit themselves: a varint prefix
 * (Protocol Buffers' writeDelimited convention) and a 4-byte little-endian prefix (FlatBuffers'
 * size-prefixed buffers).
 */
import { WirekitError } from '../../errors/index.js';
import type { FrameMeasure } from './stream.js';

/**
 * Prefixes `message` with its length as an unsigned varint.
 * @internal exported for the tests that build delimited streams by hand.
 */
export function withVarintLength(message: Uint8Array): Uint8Array {
  let length = message.length;
  let size = 1;
  while (length >= 0x80) {
    length = Math.floor(length / 128);
    size++;
  }
  const out = new Uint8Array(size + message.length);
  length = message.length;
  let i = 0;
  while (length >= 0x80) {
    out[i++] = (length & 0x7f) | 0x80;
    length = Math.floor(length / 128);
  }
  out[i++] = length;
  out.set(message, i);
  return out;
}

/** Measures a varint-prefixed frame. A prefix longer than 5 bytes (over 2^35) is malformed. */
export const varintFrame: FrameMeasure = (buffer) => {
  let length = 0;
  for (let i = 0; i < 5; i++) {
    if (i >= buffer.length) return undefined;
    const byte = buffer[i] as number;
    length += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) return i + 1 + length;
  }
  throw new WirekitError('WK_DECODE_MALFORMED', 'a frame length prefix is longer than 5 bytes.', {
    offset: 0,
  });
};

/** The payload of a varint-prefixed frame that `varintFrame` measured. */
export function varintFramePayload(frame: Uint8Array): Uint8Array {
  let i = 0;
  while ((frame[i] as number) >= 0x80) i++;
  return frame.subarray(i + 1);
}

export const uint32Frame: FrameMeasure = (buffer) =>
  buffer.length < 4 ? undefined : 4 + new DataView(buffer.buffer, buffer.byteOffset, 4).getUint32(0, true);
