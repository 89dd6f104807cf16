/**
 * gRPC's unary and server-streaming calls served straight on node:http2's streams, the hot path of
 * `createRpcServer`. Connect's handler (grpc-handler.ts) runs every call through a pipeline of async
 * iterables, `Headers` objects and Node's compatibility request and response: bench:rpc's profile
 * put that at ~250 µs of server CPU per small call, where grpc-js spends ~35 µs. A unary or
 * server-streaming call needs none of it: one request message in, replies out, then trailers. So
 * those calls are read and answered here, directly on the `ServerHttp2Stream`, and everything else
 * (client and bidirectional streams, interceptors, gRPC-Web, a codec not offered) is left to
 * Connect's router; Connect's own unary calls have their direct path beside this one
 * (direct-connect.ts), the two sharing direct-call.ts.
 *
 * The contract is grpc-handler.ts's, to the status and its message: the same content types and
 * codecs, the same limits (readMaxBytes checked at each frame's prefix before anything is buffered,
 * writeMaxBytes on each reply, decompression caps), the same compression negotiation (Connect's own
 * function), deadlines (Connect's parser; an expired one is refused before the handler runs),
 * statuses by call-error.ts's table written by grpc-status.ts. Test suites run against
 * `createRpcServer` hold this path to it; the factory's own tests hold Connect's.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import type { ConnectError } from '@connectrpc/connect';
import type { Compression } from '@connectrpc/connect/protocol';
import { compressedFlag, framed, frameHeaderBytes, writeFramePrefix } from '../grpc-frames.js';
import { codecOfContentType, contentTypeOf, type RpcCodecName } from '../message-formats.js';
import { callErrorOf, expiredDeadlineError } from './call-error.js';
import { connectRuntime } from './connect-runtime.js';
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
import { setGrpcStatus } from './grpc-status.js';
import type { BoundMethod } from './service-router.js';

/** The gRPC path of every unary and server-streaming method of `methods`. */
export function createDirectGrpc(methods: readonly BoundMethod[], options: DirectPathOptions): DirectPath {
  const byPath = new Map<string, BoundMethod>();
  for (const method of methods) {
    const kind = method.descriptor.methodKind;
    if (kind === 'unary' || kind === 'server_streaming') byPath.set(methodPath(method), method);
  }
  const run = callRunner(options.shutdownSignal);

  return (stream, headers) => {
    if (headers[':method'] !== 'POST') return false;
    const method = byPath.get(headers[':path'] ?? '');
    if (method === undefined) return false;
    const contentType = headers['content-type'];
    if (contentType === undefined) return false;
    // The bare gRPC content type is nearly every call's: no pattern to run for it.
    const codec =
      contentType === 'application/grpc' ? 'proto' : codecOfContentType('grpc', contentType)?.codec;
    // A codec not offered is Connect's router's to refuse (415), as for every protocol.
    if (codec === undefined || !options.codecs.includes(codec)) return false;
    run(new DirectCall(stream, headers, method, codec, options));
    return true;
  };
}

/** One call on one stream, from its request frames to its trailers. */
class DirectCall {
  readonly #context: DirectCallContext;
  readonly #contentType: string;
  /** A bad `grpc-timeout`, or one already expired: the call's answer, before anything is read. */
  readonly #setupError: ConnectError | undefined;
  /** Fails the request's reading, while it is being read (a deadline or shutdown mid-way). */
  #stopReading: ((reason: unknown) => void) | undefined;
  #compression: Compression | null = null;
  #responseCompression: Compression | null = null;
  #timer: NodeJS.Timeout | undefined;
  #headersSent = false;
  #finished = false;

  constructor(
    private readonly stream: ServerHttp2Stream,
    private readonly headers: IncomingHttpHeaders,
    private readonly method: BoundMethod,
    private readonly codec: RpcCodecName,
    private readonly options: DirectPathOptions,
  ) {
    this.#contentType = contentTypeOf('grpc', codec);
    const { parseTimeout } = connectRuntime().grpc;
    const timeout = parseTimeout(headerOf(headers, 'grpc-timeout'), options.maxTimeoutMs ?? Infinity);
    const deadline = timeout.timeoutMs === undefined ? undefined : Date.now() + timeout.timeoutMs;
    this.#context = new DirectCallContext(headers, 'grpc', codec, deadline);
    this.#setupError = timeout.error ?? expiredDeadlineError(timeout.timeoutMs);
    if (this.#setupError === undefined && timeout.timeoutMs !== undefined) {
      this.#timer = setTimeout(() => this.abort(deadlineExceeded()), timeout.timeoutMs);
    }
  }

  abort(reason: unknown): void {
    this.#context.abort(reason);
    this.#stopReading?.(reason);
  }

  async run(): Promise<void> {
    const { stream } = this;
    // A client that resets the stream, or a connection that drops, cancels the handler (and the
    // reading of its request, through abort()).
    stream.once('close', () => {
      if (!this.#finished) this.abort(cancelled());
    });
    stream.on('error', () => undefined);
    try {
      if (this.#setupError !== undefined) throw this.#setupError;
      this.#negotiateCompression();
      const input = await this.#readRequest();
      if (this.method.descriptor.methodKind === 'unary') await this.#answerUnary(input);
      else await this.#answerStream(input);
    } catch (error) {
      this.#fail(error);
    } finally {
      this.#finished = true;
      clearTimeout(this.#timer);
      this.#context.end();
    }
  }

  #negotiateCompression(): void {
    const { compressionNegotiate } = connectRuntime().protocol;
    const negotiated = compressionNegotiate(
      this.options.acceptCompression as Compression[],
      headerOf(this.headers, 'grpc-encoding'),
      headerOf(this.headers, 'grpc-accept-encoding'),
      'grpc-accept-encoding',
    );
    if (negotiated.error) throw negotiated.error;
    this.#compression = negotiated.request;
    this.#responseCompression = negotiated.response;
  }

  /**
   * The one request message, decoded. Frames are checked as they arrive: a length over readMaxBytes
   * fails the call at its prefix, a second message fails it at once, and bytes past a failure are
   * read and dropped (so the client is not stalled by flow control), never kept.
   */
  #readRequest(): Promise<unknown> {
    const { stream, options } = this;
    const { Code, ConnectError } = connectRuntime().connect;
    return new Promise<{ flags: number; bytes: Uint8Array }>((resolve, reject) => {
      const kind = this.method.descriptor.methodKind;
      // The bytes of the frame being read, kept as they came and joined once the frame is whole
      // (joining on every chunk would copy a 4 MiB message hundreds of times).
      let held: Buffer[] = [];
      let heldBytes = 0;
      let frameEnd = -1;
      let message: { flags: number; bytes: Uint8Array } | undefined;
      let failed = false;
      const fail = (error: unknown) => {
        failed = true;
        held = [];
        this.#stopReading = undefined;
        reject(error);
      };
      this.#stopReading = fail;
      stream.on('data', (chunk: Buffer) => {
        if (failed) return;
        held.push(chunk);
        heldBytes += chunk.length;
        for (;;) {
          if (frameEnd < 0) {
            if (heldBytes < frameHeaderBytes) return;
            if ((held[0] as Buffer).length < frameHeaderBytes) held = [Buffer.concat(held, heldBytes)];
            const length = (held[0] as Buffer).readUInt32BE(1);
            if (length > options.readMaxBytes) {
              fail(
                new ConnectError(
                  `message size ${length} is larger than configured readMaxBytes ${options.readMaxBytes}`,
                  Code.ResourceExhausted,
                ),
              );
              return;
            }
            frameEnd = frameHeaderBytes + length;
          }
          if (heldBytes < frameEnd) return;
          const all = held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held, heldBytes);
          const rest = all.subarray(frameEnd);
          held = rest.length === 0 ? [] : [rest];
          heldBytes = rest.length;
          if (message !== undefined) {
            fail(
              new ConnectError(
                `protocol error: received extra input message for ${kind} method`,
                Code.Unimplemented,
              ),
            );
            return;
          }
          message = { flags: all[0] as number, bytes: all.subarray(frameHeaderBytes, frameEnd) };
          frameEnd = -1;
        }
      });
      stream.once('end', () => {
        if (failed) return;
        if (heldBytes > 0) {
          fail(new ConnectError('protocol error: incomplete envelope', Code.InvalidArgument));
        } else if (message === undefined) {
          fail(
            new ConnectError(`protocol error: missing input message for ${kind} method`, Code.Unimplemented),
          );
        } else {
          this.#stopReading = undefined;
          resolve(message);
        }
      });
    }).then(async ({ flags, bytes }) => {
      let payload = bytes;
      if ((flags & compressedFlag) !== 0) {
        if (this.#compression === null) {
          throw new ConnectError(
            'received compressed envelope, but do not know how to decompress',
            Code.Internal,
          );
        }
        payload = await this.#compression.decompress(bytes, options.readMaxBytes);
      }
      try {
        return this.method.serializers.input.of(this.codec).parse(payload);
      } catch (error) {
        throw callErrorOf(error, options);
      }
    });
  }

  async #answerUnary(input: unknown): Promise<void> {
    const reply = await this.method.handler(input, this.#context);
    const frame = await this.#frameOf(reply);
    if (this.stream.closed) return;
    this.#respond();
    writeFrame(this.stream, frame, true);
  }

  async #answerStream(input: unknown): Promise<void> {
    const { stream } = this;
    const replies = (await this.method.handler(input, this.#context)) as AsyncIterable<unknown>;
    const iterator = replies[Symbol.asyncIterator]();
    let ended = false;
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) {
          ended = true;
          break;
        }
        const frame = await this.#frameOf(next.value);
        if (stream.closed) return;
        this.#respond();
        // Back-pressure: a client that stops reading holds the handler here, at one frame in hand.
        if (!writeFrame(stream, frame, false)) await drained(stream);
        if (stream.closed) return;
      }
    } finally {
      // A call that ends early (a cancel, a reply that could not be encoded) ends the generator
      // too, so its own finally blocks run; a generator that threw has ended already.
      if (!ended) await iterator.return?.().catch(() => undefined);
    }
    this.#respond();
    stream.end();
  }

  /** A reply as one gRPC frame: encoded, checked against writeMaxBytes, compressed if negotiated. */
  async #frameOf(reply: unknown): Promise<Frame> {
    const bytes = replyBytes(this.method, this.codec, reply, this.options.writeMaxBytes);
    const compression = this.#responseCompression;
    if (compression !== null && bytes.length >= this.options.compressMinBytes) {
      return frameOf(compressedFlag, await compression.compress(bytes));
    }
    return frameOf(0, bytes);
  }

  /** Sends the response headers (once), asking for the trailers to be written after the last frame. */
  #respond(): void {
    if (this.#headersSent) return;
    // Throws where node:http2 refuses a header the handler set (connection-headers.ts drops those
    // HTTP/2 forbids; this is for anything else): the call then fails (#fail), answered without them.
    this.stream.respond(this.#headOf(), { waitForTrailers: true });
    this.#headersSent = true;
    this.stream.once('wantTrailers', () => this.#sendTrailers(undefined));
  }

  /**
   * The trailers after the last frame. A trailer node:http2 refuses to send would throw inside its
   * 'wantTrailers' event, out of every handler's reach, and stop the process: should one pass
   * connection-headers.ts, the status alone is sent instead, INTERNAL (the server's fault).
   */
  #sendTrailers(error: ConnectError | undefined): void {
    try {
      this.stream.sendTrailers(this.#trailersOf(error));
    } catch (refused) {
      this.stream.sendTrailers(this.#trailersOf(callErrorOf(refused, this.options), false));
    }
  }

  /** The response headers: the content type, the reply encoding, and (`own`) any a handler set. */
  #headOf(own = true): OutgoingHttpHeaders {
    const head: OutgoingHttpHeaders = { ':status': 200, 'content-type': this.#contentType };
    if (this.#responseCompression !== null) head['grpc-encoding'] = this.#responseCompression.name;
    const set = own ? this.#context.responseHeaderIfUsed() : undefined;
    if (set !== undefined) {
      dropConnectionHeaders(set);
      for (const [name, value] of set) head[name] = value;
    }
    return head;
  }

  /** The status of the call (`error`, or OK) and (`own`) any trailers a handler set. */
  #trailersOf(error: ConnectError | undefined, own = true): OutgoingHttpHeaders {
    const trailers: OutgoingHttpHeaders = {};
    const set = own ? this.#context.responseTrailerIfUsed() : undefined;
    if (set !== undefined) {
      dropConnectionHeaders(set);
      for (const [name, value] of set) trailers[name] = value;
    }
    if (error === undefined) {
      trailers['grpc-status'] = '0';
      return trailers;
    }
    for (const [name, value] of setGrpcStatus(new Headers(), error)) trailers[name] = value;
    return trailers;
  }

  /** Ends the call with the status of `thrown`: in the trailers, or as a trailers-only answer. */
  #fail(thrown: unknown): void {
    const { stream } = this;
    const error = callErrorOf(thrown, this.options);
    this.abort(error);
    if (stream.closed || stream.destroyed) return;
    if (!this.#headersSent) {
      // Trailers-only: one HEADERS frame carrying the status, which ends the stream.
      this.#headersSent = true;
      try {
        stream.respond({ ...this.#headOf(), ...this.#trailersOf(error) }, { endStream: true });
      } catch (refused) {
        // A header or trailer the handler set that node:http2 refuses (#sendTrailers says why).
        const internal = callErrorOf(refused, this.options);
        stream.respond({ ...this.#headOf(false), ...this.#trailersOf(internal, false) }, { endStream: true });
      }
    } else {
      stream.removeAllListeners('wantTrailers');
      if (stream.writableEnded) return;
      stream.once('wantTrailers', () => this.#sendTrailers(error));
      stream.end();
    }
    // The request may still be arriving: read and drop it, so the stream can close.
    stream.resume();
  }
}

/**
 * A message as gRPC frames it: a flag byte and a 4-byte length, then the bytes. A small message is
 * copied behind its prefix into one buffer, one write; a large one is left where the codec wrote it
 * (a codec's bytes never change once returned, codec.ts) and written after its prefix.
 */
type Frame = Buffer | readonly [prefix: Buffer, payload: Uint8Array];

/** Past this size a message is written as it is rather than copied behind its prefix. */
const copyUpToBytes = 16 * 1024;

function frameOf(flags: number, payload: Uint8Array): Frame {
  if (payload.length <= copyUpToBytes) return framed(flags, payload);
  const prefix = Buffer.allocUnsafe(frameHeaderBytes);
  writeFramePrefix(prefix, flags, payload.length);
  return [prefix, payload];
}

/** Writes a frame (and ends the stream's writing side after it if `end`); false asks to wait for 'drain'. */
function writeFrame(stream: ServerHttp2Stream, frame: Frame, end: boolean): boolean {
  if (Buffer.isBuffer(frame)) {
    if (end) {
      stream.end(frame);
      return true;
    }
    return stream.write(frame);
  }
  // Corked, the prefix and the payload go to HTTP/2 in one write.
  stream.cork();
  stream.write(frame[0]);
  const ready = stream.write(frame[1]);
  if (end) stream.end();
  else stream.uncork();
  return ready;
}

function drained(stream: ServerHttp2Stream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
