/**
 * The load generator's side of each protocol, kept as thin as a client can be so that on a shared
 * machine the server gets the cores: gRPC and Connect are spoken over one raw node:http2 session
 * (h2c) with pre-encoded requests, the replies' frames cut out of the body and handed back as
 * bytes; plain JSON goes over undici's HTTP/1.1 pool. Decoding, and checking, is check.ts's.
 *
 *   gRPC            POST application/grpc[+codec], each message framed (flag byte, 4-byte length),
 *                   grpc-status in the trailers (or in the headers of a trailers-only reply)
 *   Connect unary   POST application/<codec>, the bare message each way, HTTP status for errors
 *   Connect stream  POST application/connect+<codec>, framed messages, then an end-of-stream frame
 *                   (flag 0x02) holding JSON, with `error` when the call failed
 */
import http2 from 'node:http2';
import { Pool } from 'undici';
import type { CallProtocol } from './protocol.js';
import type { BenchCodec } from './service.js';

export interface Transport {
  /** One call of `method`: the request message in, the reply messages out; throws unless it succeeded. */
  call(method: string, request: Uint8Array, streaming: boolean): Promise<Buffer[]>;
  close(): Promise<void>;
}

// Wide flow-control windows on the client: a 1 MB reply is not paced by window updates from a
// client that reads as fast as it can (every server gets the same client).
const windowBytes = 16 * 2 ** 20;

function frame(message: Uint8Array, flags = 0): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = flags;
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

/** The messages of a framed body, and the end-of-stream frame's payload if there is one. */
function unframe(body: Buffer): { messages: Buffer[]; end: Buffer | undefined } {
  const messages: Buffer[] = [];
  let end: Buffer | undefined;
  let at = 0;
  while (at < body.length) {
    if (body.length - at < 5) throw new Error(`a truncated frame header at byte ${at}`);
    const flags = body[at] as number;
    const length = body.readUInt32BE(at + 1);
    if (body.length - at - 5 < length) throw new Error(`a frame of ${length} bytes cut short`);
    const payload = body.subarray(at + 5, at + 5 + length);
    if (flags & 0x02) end = payload;
    else if (flags & 0x01) throw new Error('a compressed frame (none was asked for)');
    else messages.push(payload);
    at += 5 + length;
  }
  return { messages, end };
}

function contentTypeOf(protocol: 'grpc' | 'connect', codec: BenchCodec, streaming: boolean): string {
  if (protocol === 'grpc') return codec === 'proto' ? 'application/grpc' : `application/grpc+${codec}`;
  return streaming ? `application/connect+${codec}` : `application/${codec}`;
}

function http2Transport(port: number, protocol: 'grpc' | 'connect', codec: BenchCodec): Transport {
  const session = http2.connect(`http://127.0.0.1:${port}`, {
    settings: { initialWindowSize: windowBytes, enablePush: false },
  });
  session.on('connect', () => session.setLocalWindowSize(windowBytes));
  // A session error fails the calls in flight through their streams; keep it from crashing the process.
  session.on('error', () => undefined);
  const call = (method: string, request: Uint8Array, streaming: boolean) =>
    new Promise<Buffer[]>((resolve, reject) => {
      const framed = protocol === 'grpc' || streaming;
      const headers: http2.OutgoingHttpHeaders = {
        ':method': 'POST',
        ':path': `/${method}`,
        'content-type': contentTypeOf(protocol, codec, streaming),
      };
      if (protocol === 'grpc') headers.te = 'trailers';
      else headers['connect-protocol-version'] = '1';
      const stream = session.request(headers, { endStream: false });
      const chunks: Buffer[] = [];
      let status = 0;
      let grpcStatus: string | undefined;
      let grpcMessage: string | undefined;
      stream.on('response', (head) => {
        status = Number(head[':status']);
        grpcStatus = head['grpc-status'] as string | undefined;
        grpcMessage = head['grpc-message'] as string | undefined;
      });
      stream.on('trailers', (trailers) => {
        grpcStatus = (trailers['grpc-status'] as string | undefined) ?? grpcStatus;
        grpcMessage = (trailers['grpc-message'] as string | undefined) ?? grpcMessage;
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', reject);
      stream.on('end', () => {
        try {
          const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
          if (status !== 200) throw new Error(`HTTP ${status}: ${body.toString('utf8', 0, 200)}`);
          if (protocol === 'grpc' && grpcStatus !== '0')
            throw new Error(
              `grpc-status ${grpcStatus ?? 'missing'}: ${decodeURIComponent(grpcMessage ?? '')}`,
            );
          if (!framed) {
            resolve([body]);
            return;
          }
          const { messages, end } = unframe(body);
          if (protocol === 'connect') {
            const endJson = JSON.parse(end?.toString('utf8') ?? 'null') as { error?: unknown } | null;
            if (endJson === null) throw new Error('a Connect stream without its end-of-stream frame');
            if (endJson.error !== undefined)
              throw new Error(`Connect error ${JSON.stringify(endJson.error)}`);
          }
          resolve(messages);
        } catch (error) {
          reject(error);
        }
      });
      stream.end(framed ? frame(request) : request);
    });
  return {
    call,
    close: () =>
      new Promise((resolve) => {
        session.close(() => resolve());
      }),
  };
}

function jsonTransport(port: number, connections: number): Transport {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1 });
  return {
    async call(method, request, streaming) {
      if (streaming) throw new Error('plain JSON has no stream');
      const reply = await pool.request({
        method: 'POST',
        path: `/${method}`,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(request.buffer, request.byteOffset, request.byteLength),
      });
      const body = Buffer.from(await reply.body.arrayBuffer());
      if (reply.statusCode !== 200)
        throw new Error(`HTTP ${reply.statusCode}: ${body.toString('utf8', 0, 200)}`);
      return [body];
    },
    close: () => pool.close(),
  };
}

export function openTransport(
  port: number,
  protocol: CallProtocol,
  codec: BenchCodec,
  concurrency: number,
): Transport {
  return protocol === 'http-json' ? jsonTransport(port, concurrency) : http2Transport(port, protocol, codec);
}
