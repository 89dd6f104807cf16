/**
 * A gRPC call over a bare node:http2 client, frame by frame: what a test needs to send content
 * types, compressed flags and malformed frames no gRPC library would, and to read the reply's
 * headers, length-prefixed messages and trailers exactly as the server wrote them.
 */
import { type ClientHttp2Session, connect, type IncomingHttpHeaders } from 'node:http2';
import { gunzipSync } from 'node:zlib';
import { createCodec } from '../../../../src/codecs/index.js';
import { t } from '../../../../src/index.js';

export interface GrpcReply {
  readonly headers: IncomingHttpHeaders;
  /** Each reply message, decompressed when its flag says so. */
  readonly messages: Uint8Array[];
  /** Each reply frame's compressed flag. */
  readonly compressed: boolean[];
  /** The trailers, or the headers of a trailers-only answer. */
  readonly trailers: IncomingHttpHeaders;
}

/** One length-prefixed message: flag byte, 4-byte big-endian length, the bytes. */
export function frame(bytes: Uint8Array, compressed = false): Buffer {
  const head = Buffer.alloc(5);
  head[0] = compressed ? 1 : 0;
  head.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
}

export function parseFrames(body: Buffer): { messages: Uint8Array[]; compressed: boolean[] } {
  const messages: Uint8Array[] = [];
  const compressed: boolean[] = [];
  for (let at = 0; at + 5 <= body.length; ) {
    const flag = body[at] === 1;
    const length = body.readUInt32BE(at + 1);
    const bytes = body.subarray(at + 5, at + 5 + length);
    messages.push(flag ? gunzipSync(bytes) : bytes);
    compressed.push(flag);
    at += 5 + length;
  }
  return { messages, compressed };
}

export function openSession(url: string): ClientHttp2Session {
  return connect(url);
}

/** Sends `body` (frames already made) to `path` with `headers`, and reads the whole answer. */
export function grpcCall(
  session: ClientHttp2Session,
  path: string,
  contentType: string,
  body: Uint8Array,
  headers: Record<string, string> = {},
): Promise<GrpcReply> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': contentType,
      te: 'trailers',
      ...headers,
    });
    let responseHeaders: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders | undefined;
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      responseHeaders = h;
    });
    stream.on('trailers', (h) => {
      trailers = h;
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', reject);
    stream.on('close', () => {
      const { messages, compressed } = parseFrames(Buffer.concat(chunks));
      resolve({ headers: responseHeaders, messages, compressed, trailers: trailers ?? responseHeaders });
    });
    stream.end(body);
  });
}

const Any = t.object('Any', { typeUrl: t.string(), value: t.bytes() });
/** `google.rpc.Status`, as grpc-status-details-bin carries it (code is a plain int32). */
const Status = t.object('Status', {
  code: t.int32({ proto: 'int32' }),
  message: t.string(),
  details: t.array(Any),
});
const statusCodec = createCodec('protobuf', { schema: Status });

/** The `google.rpc.Status` in a reply's `grpc-status-details-bin`. */
export function statusDetails(trailers: IncomingHttpHeaders) {
  const header = trailers['grpc-status-details-bin'];
  if (typeof header !== 'string') return undefined;
  return statusCodec.decode(Buffer.from(header, 'base64'));
}
