/**
 * gRPC-Web's text variant (`application/grpc-web-text`): the same enveloped body as base64, for
 * clients that cannot send or read binary bodies. The gRPC-Web specification lets each side encode
 * its body in pieces, each padded on its own, so `=` may end any group of four characters, not
 * only the last: the decoder reads group by group, and the encoder writes each chunk as one padded
 * piece. Connect-ES has no text variant on its server.
 */
import type { AsyncIterableTransform } from '@connectrpc/connect/protocol';
import { connectRuntime } from './connect-runtime.js';

const base64Alphabet = /^[A-Za-z0-9+/]*={0,2}$/;
const whitespace = /\s+/g;

/** Decodes a base64 body that may arrive cut anywhere and padded at the end of any group of four. */
export function transformBase64Decode(): AsyncIterableTransform<Uint8Array, Uint8Array> {
  const { Code, ConnectError } = connectRuntime().connect;
  return async function* decode(chunks) {
    const text = new TextDecoder('latin1');
    let pending = '';
    for await (const chunk of chunks) {
      pending += text.decode(chunk, { stream: true }).replace(whitespace, '');
      const whole = pending.length - (pending.length % 4);
      if (whole > 0) {
        yield decodeGroups(pending.slice(0, whole));
        pending = pending.slice(whole);
      }
    }
    if (pending.length > 0) {
      throw new ConnectError(
        'protocol error: the base64 body ends inside a group of four characters',
        Code.InvalidArgument,
      );
    }
  };
}

/** Groups of four base64 characters, each group that holds `=` ending a padded piece of its own. */
function decodeGroups(groups: string): Uint8Array {
  const { Code, ConnectError } = connectRuntime().connect;
  const pieces: Buffer[] = [];
  for (let start = 0; start < groups.length; ) {
    const padding = groups.indexOf('=', start);
    const end = padding === -1 ? groups.length : padding - (padding % 4) + 4;
    const piece = groups.slice(start, end);
    if (!base64Alphabet.test(piece)) {
      throw new ConnectError('protocol error: the body is not valid base64', Code.InvalidArgument);
    }
    pieces.push(Buffer.from(piece, 'base64'));
    start = end;
  }
  return pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
}

/** Encodes each chunk of the body as one padded base64 piece. */
export function transformBase64Encode(): AsyncIterableTransform<Uint8Array, Uint8Array> {
  return async function* encode(chunks) {
    for await (const chunk of chunks) {
      yield Buffer.from(
        Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('base64'),
        'latin1',
      );
    }
  };
}
