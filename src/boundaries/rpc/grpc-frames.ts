/**
 * What wirekit's direct gRPC paths on node:http2 share, the server's (server/direct-grpc.ts) and the
 * client's (client/direct-grpc-transport.ts): gRPC's length-prefixed frame (a flag byte, a 4-byte
 * big-endian length, the message) and node:http2's header objects read as web `Headers`.
 */
import type { IncomingHttpHeaders } from 'node:http2';

/** The flag byte and the 4-byte length before each message. */
export const frameHeaderBytes = 5;
/** The flag bit of a message compressed with the call's encoding. */
export const compressedFlag = 0x01;

/** One frame: `payload` copied behind its prefix, in one buffer (one write). */
export function framed(flags: number, payload: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(frameHeaderBytes + payload.length);
  writeFramePrefix(frame, flags, payload.length);
  frame.set(payload, frameHeaderBytes);
  return frame;
}

/** Writes a frame's prefix at the start of `frame`. */
export function writeFramePrefix(frame: Buffer, flags: number, length: number): void {
  frame[0] = flags;
  frame.writeUInt32BE(length, 1);
}

/** node:http2's headers as web `Headers`, HTTP/2's pseudo-headers left out (as connect-node does). */
export function webHeadersOf(headers: IncomingHttpHeaders): Headers {
  const web = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    if (Array.isArray(value)) for (const each of value) web.append(name, each);
    else web.append(name, String(value));
  }
  return web;
}
