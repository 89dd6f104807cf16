/**
 * The Fastify 5 plugin: one route, every format. Register it once with the formats to offer; a
 * route declares its schemas under `config.wirekit` (or through `wirekitRoute`, which types the
 * handler), and its handler returns plain values.
 *
 * Per request the plugin: picks the reply's media type from `Accept` (406 when nothing fits,
 * before the body is read), decodes the body by `Content-Type` (415 for a type the route does not
 * read; 413 past the route's body limit, counted after decompression too; 400 with the error code
 * and path for a malformed or invalid body, in the negotiated format), encodes the handler's value
 * or streams its rows, compresses on `Accept-Encoding` past a size threshold, and sets `Vary`.
 * Everything that can be decided from the route alone (codecs, offers) is compiled when the route
 * is registered.
 */
import { pipeline, type Readable } from 'node:stream';
import { createBrotliCompress, createGzip, constants as zlib } from 'node:zlib';
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { type Codec, type FormatName, formatNames } from '../../codecs/codec.js';
import type { DecodeLimits } from '../../codecs/limits.js';
import { mediaTypesOf } from '../../codecs/registry.js';
import { type CompressionName, getCompressor } from '../../compression/index.js';
import { WirekitError } from '../../errors/index.js';
import { chooseEncoding, essenceOf } from '../../negotiate/index.js';
import { assert } from '../../schema/index.js';
import {
  type CompiledRoute,
  compileRoute,
  type ReplyOffer,
  type StreamKind,
  type WirekitRouteSpec,
} from './route.js';
import { type RowSource, streamRows } from './stream-reply.js';
import { errorCodecFor, type HttpError, HttpWirekitError, httpErrorOf } from './wire-error.js';

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
}

/** What the plugin keeps on each request of a wirekit route. */
interface RequestState {
  readonly route: CompiledRoute;
  readonly offer: ReplyOffer;
  /** Set once the handler runs: errors after that are the server's, not the request's. */
  handling: boolean;
  /** Aborted when the client goes away; a streaming producer may watch it. */
  readonly signal: AbortSignal;
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
const codingToCompressor: Readonly<Record<string, CompressionName>> = {
  zstd: 'zstd',
  br: 'brotli',
  gzip: 'gzip',
};

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
  const compression = options.compression === false ? undefined : (options.compression ?? {});
  const encodings = compression === undefined ? [] : [...(compression.encodings ?? ['zstd', 'br', 'gzip'])];
  const threshold = compression?.threshold ?? 1024;
  const streamEncodings = encodings.filter((coding) => coding !== 'zstd'); // no streaming zstd on Node 20
  const jsonErrors = errorCodecFor('json');
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  const parseDefaultJson = (request: FastifyRequest, text: string) =>
    new Promise<unknown>((resolve, reject) =>
      defaultJson(request, text, (error, value) => (error ? reject(error) : resolve(value))),
    );

  app.decorateRequest('wirekit', undefined);

  // Bodies: one parser for the media types of every format. It decodes with the route's codec, so
  // a wirekit route gets a value of its schema; other routes keep Fastify's JSON behaviour.
  const ownTypes = formatNames.flatMap((format) => mediaTypesOf(format));
  if (app.hasContentTypeParser('application/json')) app.removeContentTypeParser('application/json');
  app.addContentTypeParser(ownTypes, { parseAs: 'buffer' }, async (request: FastifyRequest, raw: Buffer) => {
    const state = states.get(request);
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
    const bytes = await decodedBody(request, raw, limit);
    const type = essenceOf(request.headers['content-type'] ?? '');
    if (state === undefined) {
      if (type === 'application/json') return parseDefaultJson(request, Buffer.from(bytes).toString('utf8'));
      throw new HttpWirekitError(415, 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE', `this route does not read ${type}.`);
    }
    const codec = state.route.bodyCodecs.get(type);
    if (codec === undefined) throw unsupported(type, state.route);
    const value = codec.decode(bytes);
    // Decoders check the types they read; this adds every constraint (ranges, lengths, patterns).
    if (state.route.spec.body !== undefined) assert(state.route.spec.body, value);
    return value;
  });

  app.addHook('onRoute', (route: RouteOptions) => {
    const spec = route.config?.wirekit;
    if (spec === undefined || (route.handler as { [wrapped]?: true })[wrapped]) return;
    const compiled = compileRoute(spec, formats, options.limits);

    const negotiate: onRequestHookHandler = (request, reply, done) => {
      const index = compiled.negotiator.choose(request.headers.accept);
      if (index < 0) {
        const offered = compiled.offers.map((offer) => offer.mediaType);
        const error = new HttpWirekitError(
          406,
          'WK_HTTP_NOT_ACCEPTABLE',
          `none of the offered types is acceptable: ${offered.join(', ')}.`,
          offered,
        );
        sendError(reply.header('vary', 'Accept'), httpErrorOf(error, true), undefined, jsonErrors);
        return;
      }
      const offer = compiled.offers[index] as ReplyOffer;
      const aborter = new AbortController();
      request.raw.once('close', () => {
        if (!reply.raw.writableFinished) aborter.abort();
      });
      states.set(request, { route: compiled, offer, handling: false, signal: aborter.signal });
      request.wirekit = { signal: aborter.signal, mediaType: offer.mediaType };
      done();
    };

    const checkBody: preValidationHookHandler = (request, _reply, done) => {
      const state = states.get(request) as RequestState;
      if (spec.body === undefined) return done();
      const type = request.headers['content-type'];
      if (type === undefined || request.body === undefined) {
        return done(new WirekitError('WK_DECODE_TRUNCATED', 'this route needs a request body.'));
      }
      if (!state.route.bodyCodecs.has(essenceOf(type)))
        return done(unsupported(essenceOf(type), state.route));
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
        let body: Readable = streamRows(offer.stream, value as RowSource<unknown>);
        const coding = chooseEncoding(request.headers['accept-encoding'], streamEncodings);
        if (coding !== undefined) {
          // Flushed per write, so compression delays no row; pipeline destroys the rows' stream
          // (and so stops the producer) when the socket goes.
          const compressor =
            coding === 'br'
              ? createBrotliCompress({
                  flush: zlib.BROTLI_OPERATION_FLUSH,
                  params: { [zlib.BROTLI_PARAM_QUALITY]: 5 },
                })
              : createGzip({ flush: zlib.Z_SYNC_FLUSH });
          body = pipeline(body, compressor, () => {});
          reply.header('content-encoding', coding);
        }
        return reply.header('content-type', offer.mediaType).send(body);
      }
      // A list of records in a record-rooted format: its sequence framing, written whole.
      let bytes =
        offer.codec !== undefined
          ? offer.codec.encode(value)
          : await readAllBytes((offer.stream as StreamKind).codec.encodeStream(value as unknown[]));
      if (bytes.length >= threshold) {
        const coding = chooseEncoding(request.headers['accept-encoding'], encodings);
        if (coding !== undefined) {
          bytes = await getCompressor(codingToCompressor[coding] as CompressionName).compressAsync(bytes);
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
    route.preValidation = [checkBody, ...asArray(route.preValidation)];
    const userErrorHandler = route.errorHandler;
    route.errorHandler = function (error, request, reply) {
      const state = states.get(request);
      if (userErrorHandler !== undefined && state?.handling)
        return userErrorHandler.call(this, error, request, reply);
      const record = httpErrorOf(error, state?.handling !== true);
      if (record.status >= 500) request.log.error({ err: error }, 'wirekit route failed');
      return sendError(reply, record, state?.offer, jsonErrors);
    };
  });
}

function unsupported(type: string, route: CompiledRoute): HttpWirekitError {
  return new HttpWirekitError(
    415,
    'WK_HTTP_UNSUPPORTED_MEDIA_TYPE',
    `this route does not read ${type || 'a body without a Content-Type'}; it reads ${route.bodyTypes.join(', ')}.`,
    route.bodyTypes,
  );
}

/** The body after its Content-Encoding is undone, capped at the route's body limit. */
async function decodedBody(request: FastifyRequest, raw: Buffer, limit: number): Promise<Uint8Array> {
  const coding = request.headers['content-encoding']?.trim().toLowerCase();
  if (coding === undefined || coding === '' || coding === 'identity') return raw;
  const name = codingToCompressor[coding];
  if (name === undefined) {
    throw new HttpWirekitError(
      415,
      'WK_HTTP_UNSUPPORTED_MEDIA_TYPE',
      `unsupported Content-Encoding ${coding}; use gzip, br or zstd.`,
    );
  }
  try {
    return await getCompressor(name).decompressAsync(raw, { maxDecompressedBytes: limit });
  } catch (error) {
    if (error instanceof WirekitError && error.code === 'WK_LIMIT_DECOMPRESSED') {
      throw new HttpWirekitError(
        413,
        'WK_HTTP_BODY_TOO_LARGE',
        `the body decompresses to more than the limit of ${limit} bytes.`,
      );
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
