/**
 * Connect's unary POST calls served straight on node:http2's streams, as direct-grpc.ts serves
 * gRPC's. Through Connect's router a unary call goes through Node's compatibility request and
 * response, Connect's universal request (a `Headers` object, an async iterable of the body, an
 * AbortController), its handler context and its response iterable: bench:rpc measured ~300 µs of
 * server CPU per small Connect call, against ~230 µs for Connect-ES's own server. One request body
 * in, one reply body out needs none of it, so a POST of a unary method in a codec the server offers
 * (`application/<codec>`, the content types Connect's router would hand to connect-unary-handler.ts)
 * is read and answered here. Everything else stays with Connect's router: GET calls, streams
 * (`application/connect+<codec>`), a codec not offered (its 415), HTTP/1.1, and every call of a
 * server with interceptors.
 *
 * The contract is connect-unary-handler.ts's: the same codecs, limits (readMaxBytes against the
 * content-length before anything is read, then on the bytes as they arrive; writeMaxBytes;
 * decompression caps), compression negotiation (Connect's own function, a reply compressed from
 * compressMinBytes), deadline (`connect-timeout-ms` by Connect's parser; an expired or invalid one
 * refused before the request is read; one that passes while the request is still arriving fails
 * the call then, where Connect would read on), and errors: Connect's JSON error body under the HTTP status
 * of its code, with the error's metadata and the handler's trailers as `trailer-` headers.
 * test/boundaries/rpc/server/direct-connect.test.ts holds the two paths to the same answers.
 */
import {
  constants,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';
import type { ConnectError } from '@connectrpc/connect';
import type { Compression } from '@connectrpc/connect/protocol';
import { codecOfContentType, contentTypeOf, type RpcCodecName } from '../message-formats.js';
import { callErrorOf, expiredDeadlineError } from './call-error.js';
import { connectRuntime } from './connect-runtime.js';
import { httpStatusOf } from './connect-unary-handler.js';
import { dropConnectionHeaders } from './connection-headers.js';
import {
  callRunner,
  cancelled,
  DirectCallContext,
  type DirectPath,
  type DirectPathOptions,
  deadlineExceeded,
  headerOf,
  methodPath,
  replyBytes,
} from './direct-call.js';
import { offeredContentTypes } from './method-serialization.js';
import type { BoundMethod } from './service-router.js';

/** The Connect unary path of every unary method of `methods`. */
export function createDirectConnect(methods: readonly BoundMethod[], options: DirectPathOptions): DirectPath {
  const byPath = new Map<string, BoundMethod>();
  for (const method of methods) {
    if (method.descriptor.methodKind === 'unary') byPath.set(methodPath(method), method);
  }
  // What Connect's router hands to its Connect unary handler, which then reads the codec from it.
  const offered = offeredContentTypes('connect-unary', options.codecs);
  const protoOffered = options.codecs.includes('proto');
  const codecOf = (contentType: string | undefined): RpcCodecName | undefined => {
    // The Protocol Buffers content type is nearly every call's: no pattern to run for it.
    if (contentType === 'application/proto') return protoOffered ? 'proto' : undefined;
    if (contentType === undefined || !offered.test(contentType)) return undefined;
    const codec = codecOfContentType('connect-unary', contentType)?.codec;
    return codec !== undefined && options.codecs.includes(codec) ? codec : undefined;
  };
  const run = callRunner(options.shutdownSignal);

  return (stream, headers) => {
    if (headers[':method'] !== 'POST') return false;
    const method = byPath.get(headers[':path'] ?? '');
    if (method === undefined) return false;
    const codec = codecOf(headers['content-type']);
    if (codec === undefined) return false;
    run(new DirectConnectCall(stream, headers, method, codec, options));
    return true;
  };
}

/** One unary call on one stream, from its request body to its reply body. */
class DirectConnectCall {
  readonly #context: DirectCallContext;
  readonly #timeout: { timeoutMs?: number; error?: ConnectError };
  /** Fails the request's reading, while it is being read (a deadline, a reset or shutdown mid-way). */
  #stopReading: ((reason: unknown) => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #finished = false;

  constructor(
    private readonly stream: ServerHttp2Stream,
    private readonly headers: IncomingHttpHeaders,
    private readonly method: BoundMethod,
    private readonly codec: RpcCodecName,
    private readonly options: DirectPathOptions,
  ) {
    const { parseTimeout } = connectRuntime().connectProtocol;
    this.#timeout = parseTimeout(
      headerOf(headers, 'connect-timeout-ms'),
      options.maxTimeoutMs ?? Number.MAX_SAFE_INTEGER,
    );
    const { timeoutMs } = this.#timeout;
    this.#context = new DirectCallContext(
      headers,
      'connect',
      codec,
      timeoutMs === undefined ? undefined : Date.now() + timeoutMs,
    );
  }

  abort(reason: unknown): void {
    this.#context.abort(reason);
    this.#stopReading?.(reason);
  }

  async run(): Promise<void> {
    const { stream, headers, options } = this;
    // A client that resets the stream, or a connection that drops, cancels the handler (and the
    // reading of its request, through abort()).
    stream.once('close', () => {
      if (!this.#finished) this.abort(cancelled());
    });
    stream.on('error', () => undefined);
    const { compressionNegotiate } = connectRuntime().protocol;
    const { headerUnaryAcceptEncoding } = connectRuntime().connectProtocol;
    const compression = compressionNegotiate(
      options.acceptCompression as Compression[],
      headerOf(headers, 'content-encoding'),
      headerOf(headers, 'accept-encoding'),
      headerUnaryAcceptEncoding,
    );
    let body: Uint8Array;
    let error: ConnectError | undefined;
    try {
      // Each refusal is answered before the request is read or the handler runs.
      const { timeoutMs } = this.#timeout;
      const refusal = compression.error ?? this.#timeout.error ?? expiredDeadlineError(timeoutMs);
      if (refusal !== undefined) throw refusal;
      if (timeoutMs !== undefined) {
        this.#timer = setTimeout(() => this.abort(deadlineExceeded()), timeoutMs);
      }
      const bytes = await this.#readBody();
      const payload =
        compression.request === null
          ? bytes
          : await compression.request.decompress(bytes, options.readMaxBytes);
      const input = this.method.serializers.input.of(this.codec).parse(payload);
      let reply: unknown;
      try {
        reply = await this.method.handler(input, this.#context);
      } catch (thrown) {
        // As the service router's implementation maps a handler's error (exposeErrors applies).
        throw callErrorOf(thrown, options);
      }
      body = replyBytes(this.method, this.codec, reply, options.writeMaxBytes);
    } catch (thrown) {
      error = callErrorOf(thrown);
      this.abort(error);
      const { errorToJsonBytes } = connectRuntime().connectProtocol;
      body = errorToJsonBytes(error, {});
    } finally {
      this.#finished = true;
      clearTimeout(this.#timer);
      this.#context.end();
    }
    let encoding: string | undefined;
    if (compression.response !== null && body.byteLength >= options.compressMinBytes) {
      body = await compression.response.compress(body);
      encoding = compression.response.name;
    }
    if (stream.closed || stream.destroyed) return;
    try {
      stream.respond(this.#headOf(error, encoding, body.byteLength), { endStream: body.byteLength === 0 });
    } catch {
      // A header node:http2 refuses to send (a handler's `connection`, say): no answer can be written.
      stream.close(constants.NGHTTP2_INTERNAL_ERROR);
      return;
    }
    if (body.byteLength > 0) stream.end(body);
    // The request may still be arriving (a call refused before it was read): read and drop it, so
    // the stream can close.
    stream.resume();
  }

  /**
   * The request body, whole. A content-length over readMaxBytes fails the call before a byte is
   * read; without one, the bytes are counted as they arrive and the call fails as soon as they pass
   * the limit; bytes past a failure are read and dropped (so the client is not stalled by flow
   * control), never kept. Connect's readAllBytes, on the stream's own events.
   */
  #readBody(): Promise<Uint8Array> {
    const { stream, options } = this;
    const { Code, ConnectError } = connectRuntime().connect;
    const max = options.readMaxBytes;
    const promised = lengthHintOf(this.headers['content-length']);
    if (promised !== undefined && promised > max) {
      return Promise.reject(
        new ConnectError(
          `message size ${promised} is larger than configured readMaxBytes ${max}`,
          Code.ResourceExhausted,
        ),
      );
    }
    const broken = (received: number) =>
      new ConnectError(
        `protocol error: promised ${promised} bytes, received ${received}`,
        Code.InvalidArgument,
      );
    return new Promise<Uint8Array>((resolve, reject) => {
      let chunks: Buffer[] = [];
      let received = 0;
      let failed = false;
      const fail = (error: unknown) => {
        failed = true;
        chunks = [];
        this.#stopReading = undefined;
        reject(error);
      };
      this.#stopReading = fail;
      stream.on('data', (chunk: Buffer) => {
        if (failed) return;
        received += chunk.length;
        if (promised !== undefined ? received > promised : received > max) {
          fail(
            promised !== undefined
              ? broken(received)
              : new ConnectError(
                  `message size is larger than configured readMaxBytes ${max}`,
                  Code.ResourceExhausted,
                ),
          );
          return;
        }
        chunks.push(chunk);
      });
      stream.once('end', () => {
        if (failed) return;
        if (promised !== undefined && received < promised) {
          fail(broken(received));
          return;
        }
        this.#stopReading = undefined;
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received));
      });
    });
  }

  /**
   * The response headers as connect-unary-handler.ts makes them: the content type, the handler's
   * headers, on failure JSON's content type and the error's metadata, the reply's encoding, the
   * handler's trailers as `trailer-` headers, the length.
   */
  #headOf(
    error: ConnectError | undefined,
    encoding: string | undefined,
    length: number,
  ): OutgoingHttpHeaders {
    const head: OutgoingHttpHeaders = {
      ':status': error === undefined ? 200 : httpStatusOf(error.code),
      'content-type': contentTypeOf('connect-unary', this.codec),
    };
    const set = this.#context.responseHeaderIfUsed();
    if (set !== undefined) {
      dropConnectionHeaders(set);
      for (const [name, value] of set) head[name] = value;
    }
    if (error !== undefined) {
      head['content-type'] = contentTypeOf('connect-unary', 'json');
      for (const [name, value] of error.metadata) head[name] = value;
    }
    if (encoding !== undefined) head['content-encoding'] = encoding;
    const trailers = this.#context.responseTrailerIfUsed();
    if (trailers !== undefined) {
      dropConnectionHeaders(trailers);
      for (const [name, value] of trailers) head[`trailer-${name}`] = value;
    }
    head['content-length'] = length;
    return head;
  }
}

/** A content-length as Connect's readAllBytes reads it: a safe, non-negative integer, or none. */
function lengthHintOf(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const length = Number.parseInt(header, 10);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}
