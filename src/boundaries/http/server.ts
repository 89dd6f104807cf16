/**
 * The Fastify 5 plugin: one route, every format. Register it once with the formats to offer; a
 * route declares its schemas under `config.wirekit` (or through `wirekitRoute`, which types the
 * handler), and its handler returns plain values.
 *
 * Per request the plugin: picks the reply's media type from `Accept` (406 when nothing fits,
 * before the body is read), refuses from the headers alone a body it would not read (415 for a
 * Content-Type or Content-Encoding the route does not read, 413 for a Content-Length past its
 * body limit), decodes the body by `Content-Type` (413 past the limit as it arrives and after
 * decompression; 400 with the error code and path for a malformed or invalid body), encodes the
 * handler's value or streams its rows, compresses on `Accept-Encoding` past a size threshold, and
 * sets `Vary`. Every refusal, Fastify's own included, is wirekit's error record in the negotiated
 * format, saying what would have been accepted. Everything that can be decided from the route
 * alone (codecs, offers) is compiled when the route is registered.
 *
 * What the plugin does to the app is kept to its own routes: their hooks and error handler, and
 * content-type parsers for the media types of its formats, which replace only Fastify's built-in
 * JSON parser and behave on other routes as Fastify's would (see registerParsers). A server without
 * a request timeout gets a warning in its log, not a timeout (see request-timeout.ts).
 */
import type { ServerResponse } from 'node:http';
import { pipeline, type Readable, type Transform } from 'node:stream';
// Types only: `wirekit-ts/http` also serves the client, which must load where Fastify is absent.
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preParsingHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import type { ArrowCodec } from '../../codecs/arrow/index.js';
import { type Codec, type FormatName, formatNames, type UnknownKeys } from '../../codecs/core/codec.js';
import type { DecodeLimits } from '../../codecs/core/limits.js';
import { mediaTypesOf } from '../../codecs/registry.js';
import { type CompressionName, type Compressor, getCompressor } from '../../compression/index.js';
import { WirekitError } from '../../errors/index.js';
import {
  chooseEncoding,
  essenceOf,
  maxAcceptRanges,
  rangesPastCap,
  splitOutsideQuotes,
} from '../../negotiate/index.js';
import { assert } from '../../schema/index.js';
import { ratioLimit, resolveRatio } from '../../util/decompression-ratio.js';
import { pathParamNames } from './endpoint.js';
import { errorCodecFor } from './error-codec.js';
import { bodyTooLarge, fastifyRefusal, unsupportedEncoding, unsupportedType } from './refusals.js';
import { warnWithoutRequestTimeout } from './request-timeout.js';
import {
  type CompiledRoute,
  compileRoute,
  type ReplyOffer,
  type StreamKind,
  type WirekitRouteSpec,
} from './route.js';
import { type RowSource, streamRows } from './stream-reply.js';
import { type HttpError, HttpReplyError, httpErrorOf } from './wire-error.js';

export interface WirekitCompressionOptions {
  /** Content codings to offer, in order of preference (default zstd, br, gzip). */
  readonly encodings?: readonly ('zstd' | 'br' | 'gzip')[];
  /** Replies smaller than this many bytes go uncompressed (default 1,024). */
  readonly threshold?: number;
}

export interface WirekitPluginOptions {
  /**
   * The formats routes speak (default all seven), in order of preference for clients that accept
   * several. JSON, when among them, always comes first: it answers requests without a preference.
   */
  readonly formats?: readonly FormatName[];
  /** Response compression on Accept-Encoding; false turns it off (default on). */
  readonly compression?: WirekitCompressionOptions | false;
  /** Decode limits for request bodies (see DecodeLimits; maxInputBytes follows the body limit). */
  readonly limits?: Partial<DecodeLimits>;
  /**
   * A key of a request body that the route's `body` schema does not name, in every format:
   * 'ignore' (default) skips it, so a client newer than the server keeps working; 'reject' answers
   * 400 WK_DECODE_SCHEMA_MISMATCH naming it, for an API that must not drop what a client meant (a
   * misspelt optional field). The query string of a route that types it follows the same rule.
   * A route's own `unknownKeys` overrides it.
   */
  readonly unknownKeys?: UnknownKeys;
  /**
   * A request body with a Content-Encoding may inflate to this many times its compressed size at
   * most (default 1,000; never less than 1 MiB; Infinity for no ratio cap), besides the body limit:
   * 413 past it.
   */
  readonly maxDecompressionRatio?: number;
}

/** What the plugin keeps on each request of a wirekit route. */
interface RequestState {
  readonly route: CompiledRoute & { readonly bodyLimit: number };
  readonly offer: ReplyOffer;
  /** Set by wirekit's parser: a body that reached the route without it was not decoded by it. */
  parsed: boolean;
  /** Set once the handler runs: errors after that are the server's, not the request's. */
  handling: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** wirekit's state for this request (undefined on routes without `config.wirekit`). */
    wirekit: { readonly signal: AbortSignal; readonly mediaType: string } | undefined;
  }
  interface FastifyContextConfig {
    wirekit?: WirekitRouteSpec;
  }
}

const states = new WeakMap<FastifyRequest, RequestState>();
const wrapped = Symbol('wirekit.wrapped');
/**
 * The compressor of each content coding. A Map, as every table keyed by a header is: a plain object
 * would answer `Content-Encoding: constructor` with the function every object inherits.
 */
const codingToCompressor: ReadonlyMap<string, CompressionName> = new Map([
  ['zstd', 'zstd'],
  ['br', 'brotli'],
  ['gzip', 'gzip'],
]);
/** The compressor of a content coding the plugin offers (one of codingToCompressor's). */
function compressorOf(coding: string): Compressor {
  return getCompressor(codingToCompressor.get(coding) as CompressionName);
}

/** The content codings a request body may come in. */
const bodyCodings: readonly string[] = ['gzip', 'br', 'zstd'];
/** Methods whose bodies Fastify never reads (it ignores any it is sent). */
const bodylessMethods: ReadonlySet<string> = new Set(['GET', 'HEAD', 'TRACE']);

function asArray<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/** Sends an error record in the negotiated format (JSON when nothing was negotiated). */
function sendError(
  reply: FastifyReply,
  record: HttpError,
  offer: ReplyOffer | undefined,
  jsonErrors: Codec<HttpError>,
) {
  const codec = offer?.errors ?? jsonErrors;
  reply.code(record.status).header('content-type', codec.mediaType).header('wirekit-error-code', record.code);
  if (offer !== undefined) reply.header('vary', 'Accept');
  // RFC 9110 §12.5.3: a 415 for a content coding names the codings that would do.
  if (record.encodings !== undefined) reply.header('accept-encoding', record.encodings.join(', '));
  return reply.send(Buffer.from(codec.encode(record)));
}

async function wirekitPlugin(app: FastifyInstance, options: WirekitPluginOptions): Promise<void> {
  const formats = options.formats ?? formatNames;
  for (const format of formats) {
    if (!formatNames.includes(format)) {
      throw new WirekitError(
        'WK_UNKNOWN_FORMAT',
        `unknown format ${JSON.stringify(format)}; known: ${formatNames.join(', ')}.`,
      );
    }
  }
  const ratio = resolveRatio(options.maxDecompressionRatio);
  const compression = options.compression === false ? undefined : (options.compression ?? {});
  const encodings = compression === undefined ? [] : [...(compression.encodings ?? ['zstd', 'br', 'gzip'])];
  const threshold = compression?.threshold ?? 1024;
  // The codings whose compressor streams (not zstd on Node 20), for streamed replies.
  const streamEncodings = encodings.filter((coding) => compressorOf(coding).flushingStream !== undefined);
  const jsonErrors = errorCodecFor('json');
  warnWithoutRequestTimeout(app);

  app.decorateRequest('wirekit', undefined);

  // Bodies: one parser for the media types of every format. It decodes with the route's codec, so
  // a wirekit route gets a value of its schema; other routes get what Fastify alone would give.
  registerParsers(app, async (request: FastifyRequest, state: RequestState, raw: Buffer) => {
    state.parsed = true;
    const bytes = await decodedBody(request, raw, state.route.bodyLimit, ratio);
    const type = essenceOf(request.headers['content-type'] ?? '');
    const codec = state.route.bodyCodecs.get(type);
    if (codec === undefined) throw unsupportedType(request.headers['content-type'], state.route.bodyTypes);
    const value = codec.decode(bytes);
    // Decoders hold what they read to the schema's rules (docs/values.md); validate() is where those
    // rules are defined, and one more look with it is cheap beside the request around it.
    if (state.route.spec.body !== undefined) assert(state.route.spec.body, value);
    return value;
  });

  app.addHook('onRoute', (route: RouteOptions) => {
    const spec = route.config?.wirekit;
    if (spec === undefined || (route.handler as { [wrapped]?: true })[wrapped]) return;
    const methods = asArray(route.method);
    if (spec.body !== undefined && methods.every((method) => bodylessMethods.has(method))) {
      throw new WirekitError(
        'WK_OPTIONS_INVALID',
        `${methods.join(', ')} ${route.url}: a ${methods.join(' or ')} request has no body that Fastify reads, so the route cannot declare one.`,
      );
    }
    checkParams(route.url, spec);
    const bodyLimit = route.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
    const compiled = { ...compileRoute(spec, formats, options.limits, options.unknownKeys), bodyLimit };

    const negotiate: onRequestHookHandler = (request, reply, done) => {
      const index = compiled.negotiator.choose(request.headers.accept);
      if (index < 0) {
        const record = httpErrorOf(notAcceptable(compiled, request.headers.accept), true);
        // Answered before the body is read: closing the connection spares draining it.
        if (hasBody(request)) reply.header('connection', 'close');
        sendError(reply.header('vary', 'Accept'), record, undefined, jsonErrors);
        return;
      }
      const offer = compiled.offers[index] as ReplyOffer;
      states.set(request, { route: compiled, offer, parsed: false, handling: false });
      request.wirekit = new RequestHandle(reply.raw, offer.mediaType);
      done();
    };

    // Last among the route's preParsing hooks, so that it judges the headers parsing will see.
    const refuseBody: preParsingHookHandler = (request, reply, payload, done) => {
      const refusal = refusalOfHeaders(request, compiled, bodyLimit);
      if (refusal === undefined) return done(null, payload);
      if (hasBody(request)) reply.header('connection', 'close');
      done(refusal);
    };

    const checkBody: preValidationHookHandler = (request, _reply, done) => {
      const state = states.get(request) as RequestState;
      try {
        readParts(request, compiled.parts);
      } catch (error) {
        return done(error as Error);
      }
      if (request.body !== undefined && !state.parsed) {
        // Another parser took this body (a scope that replaced wirekit's): it was not decoded or
        // validated against the route's schema, so the handler must not see it.
        return done(new Error('a wirekit route got a body that another content-type parser read.'));
      }
      if (spec.body === undefined) return done();
      if (request.body === undefined) {
        return done(new WirekitError('WK_HTTP_BODY_REQUIRED', 'this route needs a request body.'));
      }
      done();
    };

    const handler = route.handler;
    const wirekitHandler = async function (
      this: FastifyInstance,
      request: FastifyRequest,
      reply: FastifyReply,
    ) {
      const state = states.get(request) as RequestState;
      state.handling = true;
      const value = await handler.call(this, request, reply);
      if (reply.sent) return reply;
      reply.header('vary', encodings.length > 0 ? 'Accept, Accept-Encoding' : 'Accept');
      const { offer } = state;
      if (offer.stream !== undefined && spec.stream !== undefined) {
        let body: Readable = streamRows(
          offer.stream,
          value as RowSource<unknown>,
          state.route.tables as ArrowCodec,
        );
        const coding = chooseEncoding(request.headers['accept-encoding'], streamEncodings);
        if (coding !== undefined) {
          // Flushed per write, so compression delays no row; pipeline destroys the rows' stream
          // (and so stops the producer) when the socket goes.
          const compressor = compressorOf(coding).flushingStream?.() as Transform;
          body = pipeline(body, compressor, () => {});
          reply.header('content-encoding', coding);
        }
        return reply.header('content-type', offer.mediaType).send(body);
      }
      // One value (a list in its whole form too), or a list route's rows in their sequence framing.
      let bytes =
        offer.codec !== undefined
          ? offer.codec.encode(value)
          : await readAllBytes((offer.stream as StreamKind).codec.encodeStream(value as unknown[]));
      if (bytes.length >= threshold) {
        const coding = chooseEncoding(request.headers['accept-encoding'], encodings);
        if (coding !== undefined) {
          bytes = await compressorOf(coding).compressAsync(bytes);
          reply.header('content-encoding', coding);
        }
      }
      return reply
        .header('content-type', offer.mediaType)
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    };
    Object.assign(wirekitHandler, { [wrapped]: true });
    route.handler = wirekitHandler;
    route.onRequest = [negotiate, ...asArray(route.onRequest)];
    if (!methods.every((method) => bodylessMethods.has(method))) {
      route.preParsing = [...asArray(route.preParsing), refuseBody];
    }
    route.preValidation = [checkBody, ...asArray(route.preValidation)];
    const userErrorHandler = route.errorHandler;
    route.errorHandler = function (error, request, reply) {
      const state = states.get(request);
      if (userErrorHandler !== undefined && state?.handling)
        return userErrorHandler.call(this, error, request, reply);
      // Fastify's own refusals of the body, said in the route's terms.
      const rules = {
        types: compiled.bodyTypes,
        limit: bodyLimit,
        contentType: request.headers['content-type'],
      };
      const refusal = state?.handling ? undefined : fastifyRefusal(error, rules);
      const record = httpErrorOf(refusal ?? error, state?.handling !== true);
      if (record.status >= 500) request.log.error({ err: error }, 'wirekit route failed');
      return sendError(reply, record, state?.offer, jsonErrors);
    };
  });
}

/**
 * Registers wirekit's body parser for the media types of every format, in the scope the plugin is
 * registered in (Fastify allows one parser per type and scope). It replaces Fastify's built-in
 * JSON parser, and on routes that are not wirekit's does what Fastify would: JSON through
 * Fastify's own parser (with the app's prototype-poisoning settings, and no Content-Encoding
 * undone), every other type refused as Fastify refuses a type it has no parser for. A parser the
 * app registered itself for one of these types is never removed: registration fails and says how
 * to give wirekit a scope of its own (a child scope inherits its parent's parsers, so the other
 * parser is removed there, leaving the parent's in place).
 */
/** Fastify's own refusal of a type it has no parser for (FST_ERR_CTP_INVALID_MEDIA_TYPE, 415). */
function unsupportedByFastify(): Error {
  return Object.assign(new Error('Unsupported Media Type'), {
    code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    statusCode: 415,
  });
}

function registerParsers(
  app: FastifyInstance,
  parseWirekit: (request: FastifyRequest, state: RequestState, raw: Buffer) => Promise<unknown>,
): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig;
  const fastifyJson = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  const parse = async (request: FastifyRequest, raw: Buffer): Promise<unknown> => {
    const state = states.get(request);
    if (state !== undefined) return parseWirekit(request, state, raw);
    if (essenceOf(request.headers['content-type'] ?? '') !== 'application/json') throw unsupportedByFastify();
    return new Promise((resolve, reject) => {
      fastifyJson(request, raw.toString('utf8'), (error, value) => (error ? reject(error) : resolve(value)));
    });
  };
  for (const type of new Set(formatNames.flatMap((format) => mediaTypesOf(format)))) {
    try {
      app.addContentTypeParser(type, { parseAs: 'buffer' }, parse);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'FST_ERR_CTP_ALREADY_PRESENT') throw error;
      throw Object.assign(
        new Error(
          `wirekit reads ${type} bodies with its own parser, and this scope already has one for it. ` +
            'Register wirekit and its routes in a scope of their own, and take the other parser away ' +
            `there first: app.register(async (api) => { api.removeContentTypeParser('${type}'); ` +
            'await api.register(wirekit); api.route(...); }).',
          { cause: error },
        ),
        { code: 'FST_ERR_CTP_ALREADY_PRESENT' },
      );
    }
  }
}

/**
 * `request.wirekit`: the negotiated type, and a signal that aborts when the client goes away, made
 * only for a handler that asks for it (most never do). It follows the response's close, not the
 * request's: Node closes a request as soon as its body has been read, long before the reply is
 * done. A reply already ended is no leave (inject closes its responses before they report
 * finished).
 */
class RequestHandle {
  readonly mediaType: string;
  private aborter: AbortController | undefined;
  private left = false;

  constructor(response: ServerResponse, mediaType: string) {
    this.mediaType = mediaType;
    response.once('close', () => {
      if (response.writableEnded) return;
      this.left = true;
      this.aborter?.abort();
    });
  }

  get signal(): AbortSignal {
    if (this.aborter === undefined) {
      this.aborter = new AbortController();
      if (this.left) this.aborter.abort();
    }
    return this.aborter.signal;
  }
}

/**
 * Puts the typed parts in place of their text: `request.params` and `request.query` become the
 * values read, and the headers the route names are read as theirs, beside the others (Fastify's
 * setter keeps the raw headers as they came: `request.raw.headers` still has the text).
 */
function readParts(request: FastifyRequest, parts: CompiledRoute['parts']): void {
  for (const [part, read] of parts) {
    if (part === 'params') request.params = read(request.params);
    else if (part === 'query') request.query = read(request.query);
    // Spread over what was there: headers a hook of the app set before stay set.
    else request.headers = { ...request.headers, ...read(request.headers) } as FastifyRequest['headers'];
  }
}

/** Refuses, at registration, a `params` field that the URL has no parameter for: it could never come. */
function checkParams(url: string, spec: WirekitRouteSpec): void {
  if (spec.params === undefined) return;
  const names = pathParamNames(url);
  for (const field of spec.params.fields) {
    if (!names.includes(field.name)) {
      throw new WirekitError(
        'WK_OPTIONS_INVALID',
        `${url}: params.${field.name} is no parameter of the path (it has ${names.length === 0 ? 'none' : names.map((name) => `:${name}`).join(', ')}).`,
      );
    }
  }
}

/** Whether the request says a body follows (a length above zero, or chunks). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The refusal of a body the route would not read, from the headers alone: before any parser
 * (another plugin's included) reads a byte of it. Where Fastify reads no body (GET, HEAD, TRACE,
 * or no Content-Type and nothing to read), there is nothing to refuse.
 */
function refusalOfHeaders(
  request: FastifyRequest,
  route: CompiledRoute,
  bodyLimit: number,
): HttpReplyError | undefined {
  if (bodylessMethods.has(request.method)) return undefined;
  const headers = request.headers;
  const type = headers['content-type'];
  const body = hasBody(request);
  // Fastify reads nothing without a Content-Type and a body, nor for an OPTIONS without a body;
  // QUERY must state its type (RFC 10008).
  if (!body && (type === undefined ? request.method !== 'QUERY' : request.method === 'OPTIONS')) {
    return undefined;
  }
  if (type === undefined || !route.bodyCodecs.has(essenceOf(type)))
    return unsupportedType(type, route.bodyTypes);
  const coding = headers['content-encoding'];
  if (!acceptedCoding(coding)) return unsupportedEncoding(String(coding).trim(), bodyCodings);
  const length = Number(headers['content-length']);
  if (length > bodyLimit) return bodyTooLarge(bodyLimit, `a Content-Length of ${length} bytes`);
  return undefined;
}

/** Whether a body in this Content-Encoding can be read: none, identity, or one wirekit undoes. */
function acceptedCoding(header: string | undefined): boolean {
  const coding = header?.trim().toLowerCase();
  return coding === undefined || coding === '' || coding === 'identity' || bodyCodings.includes(coding);
}

/** The 406 for an Accept that names nothing the route offers, with hints for what it named. */
function notAcceptable(route: CompiledRoute, accept: string | undefined): HttpReplyError {
  const offered = route.offers.map((offer) => offer.mediaType);
  const hints = new Set<string>();
  for (const range of splitOutsideQuotes(accept ?? '', ',').slice(0, 16)) {
    const hint = route.notOffered.get(essenceOf(range));
    if (hint !== undefined) hints.add(hint);
  }
  const message = `none of the offered types is acceptable: ${offered.join(', ')}.`;
  // A type listed past the cap was never seen: say so, or the 406 would seem to contradict the header.
  const unread = rangesPastCap(accept ?? '');
  const cut =
    unread === 0
      ? []
      : [
          `The Accept header lists more than ${maxAcceptRanges} media ranges: only the first ${maxAcceptRanges} ` +
            `were read and ${unread} more ${unread === 1 ? 'was' : 'were'} not; list the types you want first.`,
        ];
  return new HttpReplyError(406, 'WK_HTTP_NOT_ACCEPTABLE', [message, ...cut, ...hints].join(' '), offered);
}

/**
 * The body after its Content-Encoding is undone, capped at the route's body limit and at `ratio`
 * times its compressed size.
 */
async function decodedBody(
  request: FastifyRequest,
  raw: Buffer,
  limit: number,
  ratio: number,
): Promise<Uint8Array> {
  const coding = request.headers['content-encoding']?.trim().toLowerCase();
  if (coding === undefined || coding === '' || coding === 'identity') return raw;
  const name = codingToCompressor.get(coding);
  if (name === undefined) throw unsupportedEncoding(coding, bodyCodings);
  try {
    return await getCompressor(name).decompressAsync(raw, {
      maxDecompressedBytes: limit,
      maxDecompressionRatio: ratio,
    });
  } catch (error) {
    if (error instanceof WirekitError && error.code === 'WK_LIMIT_DECOMPRESSED') {
      const byRatio = ratioLimit(raw.length, ratio);
      if (byRatio < limit) {
        throw new HttpReplyError(
          413,
          'WK_HTTP_BODY_TOO_LARGE',
          `the decompressed body is more than ${ratio} times its ${raw.length} compressed bytes (maxDecompressionRatio), at most ${byRatio} bytes.`,
          undefined,
          { limit: byRatio },
        );
      }
      throw bodyTooLarge(limit, 'the decompressed body');
    }
    throw error;
  }
}

async function readAllBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) parts.push(part);
  return Buffer.concat(parts);
}

/** The plugin. `app.register(wirekit, { formats: ['json', 'msgpack', 'arrow'] })`. */
export const wirekit: FastifyPluginAsync<WirekitPluginOptions> = fp(wirekitPlugin, {
  fastify: '5.x',
  name: 'wirekit',
});
