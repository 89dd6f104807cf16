/**
 * gRPC's unary calls made directly on a node:http2 stream, the hot path of `grpcTransport`. Connect's
 * call runner (grpc-transport.ts) passes every call through a pipeline of async iterables, Headers
 * objects, linked abort controllers and a sentinel that makes an Error with a stack trace on every
 * call: bench:gateway's profile put the client at about three times grpc-js's CPU per small call.
 * A unary call is one frame out and one frame back; this module writes the request frame, reads
 * the reply frame and the trailers, and nothing else. The connection is still connect-node's
 * Http2SessionManager's (connecting, keepalive pings, idle timeout, GOAWAY), and streaming calls
 * still go through Connect's runner.
 *
 * The contract is grpc-transport.ts's: the same request headers, limits, compression, deadline and
 * cancellation, and the same errors (statuses from the trailers by Connect's own `findTrailerError`,
 * a failed connection by connect-node's mapping): test suites that run wirekit's client against
 * Connect-ES, grpc-js and Python servers hold both paths to it.
 */
import type { ClientHttp2Stream, IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http2';
import { Code, ConnectError } from '@connectrpc/connect';
import { createMethodUrl } from '@connectrpc/connect/protocol';
import { findTrailerError } from '@connectrpc/connect/protocol-grpc';
import type { Http2SessionManager } from '@connectrpc/connect-node';
import { compressedFlag, framed, frameHeaderBytes, webHeadersOf } from '../grpc-frames.js';
import { codecOfContentType, contentTypeOf } from '../message-formats.js';
import { responseCompression } from './envelopes.js';
import type { ProtocolTransportConfig } from './protocol-config.js';
import type { MethodDescriptor, RpcTransport, TransportCall, UnaryOutcome } from './transport.js';

/** RST_STREAM's CANCEL: how a gRPC client abandons a call. */
const cancelCode = 0x8;

/** The unary method of a gRPC transport, on `session`; the rest of `transport` is kept. */
export function withDirectUnary(
  transport: RpcTransport,
  config: ProtocolTransportConfig,
  session: Http2SessionManager,
): RpcTransport {
  const contentType = contentTypeOf('grpc', config.codec);
  // The headers every call sends, as Connect's gRPC transport sends them; a call adds its own.
  const base: OutgoingHttpHeaders = {
    'content-type': contentType,
    te: 'trailers',
    'user-agent': 'wirekit',
  };
  if (config.acceptCompression.length > 0) {
    base['grpc-accept-encoding'] = config.acceptCompression.map((c) => c.name).join(',');
  }
  config.headers.forEach((value, name) => {
    base[name] = value;
  });
  const paths = new WeakMap<MethodDescriptor, string>();
  const pathOf = (method: MethodDescriptor) => {
    let path = paths.get(method);
    if (path === undefined) {
      path = new URL(createMethodUrl(config.baseUrl, method as never)).pathname;
      paths.set(method, path);
    }
    return path;
  };

  async function unary(call: TransportCall, request: unknown): Promise<UnaryOutcome> {
    if (call.signal?.aborted === true) throw cancelledBy(call.signal.reason);
    const headers: OutgoingHttpHeaders = { ...base };
    call.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (call.timeoutMs !== undefined) headers['grpc-timeout'] = `${Math.max(1, Math.ceil(call.timeoutMs))}m`;
    const body = await requestFrame(call, request, config, headers);
    const stream = await session.request('POST', pathOf(call.method), headers, {});
    return readUnaryReply(stream, call, config, session, body);
  }

  return { ...transport, unary };
}

/** The request as one gRPC frame, compressed when asked and large enough; its size checked first. */
async function requestFrame(
  call: TransportCall,
  request: unknown,
  config: ProtocolTransportConfig,
  headers: OutgoingHttpHeaders,
): Promise<Buffer> {
  let bytes = call.messages.input.of(config.codec).serialize(request);
  if (bytes.length > config.writeMaxBytes) {
    throw new ConnectError(
      `message size ${bytes.length} is larger than configured writeMaxBytes ${config.writeMaxBytes}`,
      Code.ResourceExhausted,
    );
  }
  let flags = 0;
  const compression = config.sendCompression;
  if (compression !== null) {
    headers['grpc-encoding'] = compression.name;
    if (bytes.length >= config.compressMinBytes) {
      bytes = await compression.compress(bytes as Uint8Array<ArrayBuffer>);
      flags = compressedFlag;
    }
  }
  return framed(flags, bytes);
}

/**
 * What arrived for a unary call that ended well: its headers and trailers as node:http2 gave them,
 * and one reply frame. Web `Headers` are made of them only when asked for (`onHeader`, `onTrailer`,
 * an error): two a call cost about 4 % of a small call's CPU at the gateway, which asks for neither.
 */
interface Arrived {
  readonly head: IncomingHttpHeaders;
  /** The trailers, or the headers of a trailers-only answer. */
  readonly tail: IncomingHttpHeaders;
  readonly flags: number;
  readonly payload: Uint8Array;
}

/** A header's value as `Headers.get` reads it: repeated values joined by ", ". */
function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Sends the request frame, then reads the answer and decodes its reply. */
async function readUnaryReply(
  stream: ClientHttp2Stream,
  call: TransportCall,
  config: ProtocolTransportConfig,
  session: Http2SessionManager,
  body: Buffer,
): Promise<UnaryOutcome> {
  const arrived = await new Promise<Arrived>((resolve, reject) => {
    let head: IncomingHttpHeaders | undefined;
    let tail: IncomingHttpHeaders | undefined;
    const chunks: Buffer[] = [];
    let received = 0;
    let frameBytes = -1;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
      if (!stream.closed) stream.close(cancelCode);
      reject(error);
    };
    const onAbort = () => fail(cancelledBy(call.signal?.reason));
    call.signal?.addEventListener('abort', onAbort, { once: true });
    if (call.timeoutMs !== undefined) {
      timer = setTimeout(
        () => fail(new ConnectError('the operation timed out', Code.DeadlineExceeded)),
        call.timeoutMs,
      );
    }
    stream.on('response', (headers) => {
      head = headers;
    });
    stream.on('trailers', (headers) => {
      tail = headers;
    });
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      session.notifyResponseByteRead(stream);
      chunks.push(chunk);
      received += chunk.length;
      if (frameBytes < 0 && received >= frameHeaderBytes) {
        // The reply's prefix says how much is coming: refused at once past the read limit.
        const prefix =
          (chunks[0] as Buffer).length >= frameHeaderBytes ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        const length = prefix.readUInt32BE(1);
        if (length > config.readMaxBytes) {
          fail(
            new ConnectError(
              `message size ${length} is larger than configured readMaxBytes ${config.readMaxBytes}`,
              Code.ResourceExhausted,
            ),
          );
          return;
        }
        frameBytes = frameHeaderBytes + length;
      }
      if (frameBytes >= 0 && received > frameBytes) {
        fail(new ConnectError('protocol error: more than one reply to a unary call', Code.Unimplemented));
      }
    });
    // The stream's error (a reset, or its connection's: a TLS alert, a dropped socket) says why a
    // call ended without an answer; it is read when the stream closes.
    let streamError: Error | undefined;
    stream.on('error', (error) => {
      streamError = error;
    });
    stream.on('close', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
      try {
        resolve(arrivedOf(head, tail, chunks, received, frameBytes, config, stream.rstCode, streamError));
      } catch (error) {
        reject(error);
      }
    });
    stream.end(body);
  });
  let bytes = arrived.payload;
  if ((arrived.flags & compressedFlag) !== 0) {
    const encoding = headerValue(arrived.head['grpc-encoding']);
    const compression = responseCompression(encoding, config.acceptCompression);
    if (compression === null) {
      throw new ConnectError(
        'received compressed envelope, but do not know how to decompress',
        Code.Internal,
      );
    }
    bytes = await compression.decompress(bytes as Uint8Array<ArrayBuffer>, config.readMaxBytes);
  }
  const message = call.messages.output.of(config.codec).parse(bytes);
  let header: Headers | undefined;
  let trailer: Headers | undefined;
  return {
    get header() {
      header ??= webHeadersOf(arrived.head);
      return header;
    },
    get trailer() {
      trailer ??= webHeadersOf(arrived.tail);
      return trailer;
    },
    message,
  };
}

/** What arrived, checked as a gRPC client must, or the error the call ended with. */
function arrivedOf(
  head: IncomingHttpHeaders | undefined,
  tail: IncomingHttpHeaders | undefined,
  chunks: readonly Buffer[],
  received: number,
  frameBytes: number,
  config: ProtocolTransportConfig,
  rstCode: number | undefined,
  streamError: Error | undefined,
): Arrived {
  if (head === undefined) throw endedError(rstCode, streamError);
  const status = Number(head[':status']);
  if (status !== 200) throw new ConnectError(`HTTP ${status}`, codeOfHttpStatus(status), webHeadersOf(head));
  // A trailers-only answer carries the status in its headers.
  const trailersOnly = tail === undefined && head['grpc-status'] !== undefined;
  if (tail === undefined && !trailersOnly) throw endedError(rstCode, streamError);
  const trailers = (trailersOnly ? head : tail) as IncomingHttpHeaders;
  // Status 0 without details is the one answer with no error in it: Connect's reading is for the rest.
  if (trailers['grpc-status'] !== '0' || trailers['grpc-status-details-bin'] !== undefined) {
    const trailer = webHeadersOf(trailers);
    const error = findTrailerError(trailer);
    if (error !== undefined) throw error;
    if (!trailer.has('grpc-status'))
      throw new ConnectError('protocol error: missing status', Code.Internal, webHeadersOf(head));
  }
  const contentType = head['content-type'] ?? '';
  if (codecOfContentType('grpc', contentType)?.codec !== config.codec) {
    throw new ConnectError(
      `the reply's content type ${contentType} is not ${config.codec}`,
      Code.Internal,
      webHeadersOf(head),
    );
  }
  if (received === 0) throw new ConnectError('protocol error: no reply to a unary call', Code.Unimplemented);
  if (frameBytes < 0 || received < frameBytes) {
    throw new ConnectError('protocol error: incomplete envelope', Code.InvalidArgument);
  }
  const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks as Buffer[], received);
  return {
    head,
    tail: trailers,
    flags: body[0] as number,
    payload: body.subarray(frameHeaderBytes, frameBytes),
  };
}

/** gRPC's mapping of an HTTP status that is not 200 (doc/http-grpc-status-mapping.md). */
function codeOfHttpStatus(status: number): Code {
  switch (status) {
    case 400:
      return Code.Internal;
    case 401:
      return Code.Unauthenticated;
    case 403:
      return Code.PermissionDenied;
    case 404:
      return Code.Unimplemented;
    case 429:
    case 502:
    case 503:
    case 504:
      return Code.Unavailable;
    default:
      return Code.Unknown;
  }
}

function cancelledBy(reason: unknown): ConnectError {
  if (reason instanceof ConnectError) return reason;
  return new ConnectError('the call was cancelled', Code.Canceled, undefined, undefined, reason);
}

/**
 * A stream that ended without an answer, as connect-node reads one: its connection's error (an
 * unreachable host UNAVAILABLE, a reset connection ABORTED, anything else, such as a TLS alert,
 * INTERNAL with its reason), or the server's RST_STREAM code (REFUSED_STREAM is UNAVAILABLE,
 * ENHANCE_YOUR_CALM RESOURCE_EXHAUSTED...).
 */
function endedError(rstCode: number | undefined, streamError: Error | undefined): ConnectError {
  const nodeCode = (streamError as { code?: string } | undefined)?.code;
  if (streamError !== undefined && nodeCode !== 'ERR_HTTP2_STREAM_ERROR') {
    const code =
      nodeCode === 'ECONNRESET' || nodeCode === 'ERR_STREAM_DESTROYED'
        ? Code.Aborted
        : nodeCode === 'ETIMEDOUT' || nodeCode === 'ECONNREFUSED' || nodeCode === 'ENOTFOUND'
          ? Code.Unavailable
          : Code.Internal;
    return new ConnectError(streamError.message, code, undefined, undefined, streamError);
  }
  const reset = rstCode ?? 0;
  const status =
    reset === 0x8
      ? Code.Canceled
      : reset === 0xb
        ? Code.ResourceExhausted
        : reset === 0xc
          ? Code.PermissionDenied
          : reset === 0x7 || reset === 0
            ? Code.Unavailable
            : Code.Internal;
  return new ConnectError(`the stream closed without an answer (HTTP/2 code ${reset})`, status);
}
