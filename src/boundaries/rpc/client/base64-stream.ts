/**
 * gRPC-Web's text variant (`application/grpc-web-text`): the enveloped body travels as base64, for
 * proxies and old browsers that cannot pass binary bodies. A server may pad and restart base64 at
 * any chunk (each message is often encoded on its own), so the decoder reads groups of four
 * characters, each of which decodes on its own whether it ends in padding or not.
 */
import { base64Decode, base64Encode } from '@bufbuild/protobuf/wire';
import { Code, ConnectError } from '@connectrpc/connect';

const ascii = new TextDecoder('latin1');
const encoder = new TextEncoder();

/** Each chunk of a body as base64 text, padded: a reader may decode the chunks one by one. */
export async function* base64Chunks(chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  for await (const chunk of chunks) yield encoder.encode(base64Encode(chunk, 'std'));
}

/** The bytes of a base64 body however its chunks were cut and padded; whitespace is skipped. */
export async function* base64Decoded(chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  let pending = '';
  for await (const chunk of chunks) {
    pending += ascii.decode(chunk).replace(/\s+/g, '');
    const whole = pending.length - (pending.length % 4);
    if (whole === 0) continue;
    yield decodeGroups(pending.slice(0, whole));
    pending = pending.slice(whole);
  }
  if (pending.length > 0) {
    throw new ConnectError('protocol error: the base64 body ends inside a group', Code.InvalidArgument);
  }
}

/** Whole groups of four, which may hold padding at the end of any group (a restarted encoding). */
function decodeGroups(text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/=]*$/.test(text)) {
    throw new ConnectError('protocol error: the body is not base64', Code.InvalidArgument);
  }
  if (!text.slice(0, -2).includes('=')) return base64Decode(text);
  // Padding inside: decode each padded run on its own and join them.
  const parts = text.match(/[^=]*={0,2}/g)?.filter((part) => part.length > 0) ?? [];
  const decoded = parts.map((part) => base64Decode(part));
  const out = new Uint8Array(decoded.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of decoded) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
