/**
 * gRPC's status trailers (`grpc-status`, `grpc-message`, `grpc-status-details-bin`) for a call's
 * outcome. Connect writes them, but percent-encodes the message with `encodeURIComponent`, which
 * also escapes `: / , ; ? # & = + $ @`; grpc-js reads it back with `decodeURI`, which leaves those
 * escaped, so a grpc-js caller would read `WK_DECODE_TRUNCATED%3A the input...`. The gRPC spec asks
 * less: only bytes outside printable ASCII, and `%` itself, are escaped (each UTF-8 byte as `%XX`).
 * Every gRPC runtime decodes that form, grpc-js's `decodeURI` included.
 */
import type { ConnectError } from '@connectrpc/connect';
import { connectRuntime } from './connect-runtime.js';

const utf8 = new TextEncoder();

/** `message` as the `grpc-message` header carries it: printable ASCII but `%` as is, the rest `%XX`. */
export function encodeGrpcMessage(message: string): string {
  // The common case, a plain ASCII message, is returned untouched.
  if (/^[\x20-\x24\x26-\x7e]*$/.test(message)) return message;
  let encoded = '';
  for (const byte of utf8.encode(message)) {
    encoded +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** Sets the status trailers of `error` (or OK) on `target`, the message encoded as the spec says. */
export function setGrpcStatus(target: Headers, error: ConnectError | undefined): Headers {
  const { headerGrpcMessage, setTrailerStatus } = connectRuntime().grpc;
  setTrailerStatus(target, error);
  if (error !== undefined) target.set(headerGrpcMessage, encodeGrpcMessage(error.rawMessage));
  return target;
}
