/**
 * Hand-made RPC bodies for tests that speak a protocol's bytes themselves: length-prefixed
 * envelopes (one flag byte, a big-endian 32-bit length, the data) and the error details of a
 * status, read back with wirekit's schemas of `google.rpc.ErrorInfo`.
 */
import { ErrorInfo } from '../../../../src/boundaries/rpc/error-details.js';
import { createCodec } from '../../../../src/codecs/registry.js';
import { type Infer, t } from '../../../../src/index.js';

export interface Envelope {
  readonly flags: number;
  readonly data: Uint8Array;
}

export function envelope(flags: number, data: Uint8Array, claimedLength = data.byteLength): Uint8Array {
  const bytes = new Uint8Array(5 + data.byteLength);
  bytes[0] = flags;
  new DataView(bytes.buffer).setUint32(1, claimedLength);
  bytes.set(data, 5);
  return bytes;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** Every envelope of a body; throws if the body ends inside one. */
export function splitEnvelopes(body: Uint8Array): Envelope[] {
  const envelopes: Envelope[] = [];
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  for (let at = 0; at < body.byteLength; ) {
    const length = view.getUint32(at + 1);
    if (at + 5 + length > body.byteLength) throw new Error('the body ends inside an envelope');
    envelopes.push({ flags: body[at] as number, data: body.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return envelopes;
}

const errorInfoCodec = createCodec<ErrorInfo>('protobuf', { schema: ErrorInfo });

/** A Connect error detail (`{ type, value: base64 }`) read as the ErrorInfo wirekit wrote. */
export function errorInfoOf(detail: { type: string; value: string }): ErrorInfo {
  if (detail.type !== 'google.rpc.ErrorInfo') throw new Error(`not an ErrorInfo: ${detail.type}`);
  return errorInfoCodec.decode(Buffer.from(detail.value, 'base64'));
}

export const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** `google.rpc.Status`, as `grpc-status-details-bin` carries it: field numbers 1, 2, 3. */
const Status = t.object('Status', {
  code: t.int32({ proto: 'int32' }),
  message: t.string(),
  details: t.array(t.object('Any', { typeUrl: t.string(), value: t.bytes() })),
});
const statusCodec = createCodec<Infer<typeof Status>>('protobuf', { schema: Status });

/** A `grpc-status-details-bin` value (unpadded base64) read as a google.rpc.Status. */
export function grpcStatusOf(header: string): Infer<typeof Status> {
  return statusCodec.decode(Buffer.from(header, 'base64'));
}
