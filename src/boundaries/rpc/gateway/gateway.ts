/**
 * JSON at the edge: a Fastify plugin that serves a service's REST mappings (`t.unary(..., { http })`,
 * google.api.http's rules) and calls the RPC behind each one, so a public JSON API and an internal
 * binary one come from one schema:
 *
 *   await app.register(rpcGateway(OrderService, (method, request, options) => call(method, request, options)));
 *
 * Per request: the path is matched against the method's templates (path-match.ts); path, query and
 * body become one request value by ProtoJSON (request-binding.ts), refused with the HTTP boundary's
 * error records (400 and the field's path for a bad value, 413 past the body limit, 415 for a body
 * that is not JSON); `call(method, request, { signal, timeoutMs, headers })` runs the RPC (the
 * user's client, which carries it in Protocol Buffers or any format it speaks); the reply is
 * answered as ProtoJSON, or a failed call's status as its HTTP status (call-failure.ts).
 *
 * The plugin is encapsulated (not fastify-plugin): its JSON parser and error handler stay in its
 * scope, and `app.register(rpcGateway(...), { prefix: '/api' })` mounts the routes under a prefix.
 * The app's hooks (authentication, rate limits) run before the gateway's handlers.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Codec, UnknownKeys } from '../../../codecs/core/codec.js';
import type { DecodeLimits } from '../../../codecs/core/limits.js';
import { createProtoJsonCodec } from '../../../codecs/protobuf/protojson.js';
import { jsonNameOf } from '../../../codecs/protobuf/protojson-names.js';
import {
  createProtoJsonTranscoder,
  type ProtoJsonTranscoder,
} from '../../../codecs/protobuf/protojson-transcode.js';
import { WirekitError } from '../../../errors/index.js';
import { type ParsedBinding, parseHttpRule } from '../../../schema/http-rule.js';
import type { MethodSchema, ObjectSchema, ServiceSchema } from '../../../schema/index.js';
import { fastifyRefusal } from '../../http/refusals.js';
import { type HttpError, httpErrorOf } from '../../http/wire-error.js';
import { EncodedReply } from '../encoded-reply.js';
import type { MessageCodecOptions } from '../message-formats.js';
import { gatewayErrorOf } from './call-failure.js';
import { bySpecificity, matchPath, routeUrlOf } from './path-match.js';
import { RequestBinder } from './request-binding.js';

/** What `call` is given beside the request. */
export interface GatewayCallOptions {
  /** Aborts when the REST client goes away before the answer. */
  readonly signal: AbortSignal;
  /** The deadline to give the RPC (the gateway's `timeoutMs`), for the client to send and enforce. */
  readonly timeoutMs: number | undefined;
  /** The request headers to pass on as the call's metadata (see `forwardHeaders`). */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The RPC behind the routes: called with the method's name and its request (`Infer` of the
 * method's input), it resolves to the reply (held to the output schema when it is encoded) or
 * rejects with the call's status (see call-failure.ts for the shapes understood). `gatewayCallOf`
 * makes one from wirekit's RPC client, whose Protocol Buffers replies are answered without being
 * decoded.
 */
export type GatewayCall<S extends ServiceSchema = ServiceSchema> = (
  method: keyof S['methods'] & string,
  request: unknown,
  options: GatewayCallOptions,
) => Promise<unknown>;

export interface RpcGatewayOptions {
  /** A request body's limit in bytes (default 1 MiB); 413 past it. */
  readonly bodyLimit?: number;
  /** The deadline each call is given, in milliseconds (default 30,000). */
  readonly timeoutMs?: number;
  /**
   * Request headers passed to `call` as metadata (default `['authorization']`), besides every
   * `grpc-metadata-<name>` header, passed as `<name>` (gRPC-gateway's convention).
   */
  readonly forwardHeaders?: readonly string[];
  /**
   * A body key or query parameter no field has: 'ignore' (default: a newer client keeps working) or
   * 'reject' (400 WK_DECODE_SCHEMA_MISMATCH naming it).
   */
  readonly unknownKeys?: UnknownKeys;
  /** Query parameters read at most (default 1,000); 400 WK_LIMIT_ELEMENTS past it. */
  readonly maxQueryParameters?: number;
  /** Write reply fields at their defaults too (0, '', false, []), as ProtoJSON's emitDefaults. */
  readonly emitDefaults?: boolean;
  /** Decode limits for requests (depth, lengths, elements: see DecodeLimits). */
  readonly limits?: Partial<DecodeLimits>;
}

/** One binding, ready to serve. */
interface Route {
  readonly method: string;
  readonly binding: ParsedBinding;
  readonly binder: RequestBinder;
  readonly reply: Codec<unknown>;
  /** ProtoJSON straight from a reply's Protocol Buffers bytes, one per client's codec options. */
  readonly transcoders: WeakMap<MessageCodecOptions, ProtoJsonTranscoder>;
  readonly output: ObjectSchema;
  readonly emitDefaults: boolean;
}

/** The route's transcoder for replies a client with `options` decodes (its limits and validation). */
function transcoderOf(route: Route, options: MessageCodecOptions): ProtoJsonTranscoder {
  let transcoder = route.transcoders.get(options);
  if (transcoder === undefined) {
    transcoder = createProtoJsonTranscoder({
      schema: route.output,
      emitDefaults: route.emitDefaults,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.validate === undefined ? {} : { validate: options.validate }),
    });
    route.transcoders.set(options, transcoder);
  }
  return transcoder;
}

const jsonType = 'application/json';

function sendRecord(reply: FastifyReply, record: HttpError): FastifyReply {
  return reply
    .code(record.status)
    .header('content-type', jsonType)
    .header('wirekit-error-code', record.code)
    .send(JSON.stringify(record));
}

/** The headers `call` gets: the listed ones, and `grpc-metadata-*` without the prefix. */
function forwardedHeaders(request: FastifyRequest, listed: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (listed.has(name)) out[name] = text;
    else if (name.startsWith('grpc-metadata-') && name.length > 14) out[name.slice(14)] = text;
  }
  return out;
}

/** A signal that aborts when the response closes before it was written (the client left). */
function leaveSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  return controller.signal;
}

/**
 * The plugin serving `service`'s REST mappings; methods without one get no route. Throws
 * WK_OPTIONS_INVALID when no method has a mapping (nothing to serve is a mistake, not a choice).
 */
export function rpcGateway<S extends ServiceSchema>(
  service: S,
  call: GatewayCall<S>,
  options: RpcGatewayOptions = {},
): FastifyPluginAsync {
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const listed = new Set((options.forwardHeaders ?? ['authorization']).map((name) => name.toLowerCase()));
  const unknownKeys = options.unknownKeys ?? 'ignore';
  const limits = { maxQueryParameters: options.maxQueryParameters ?? 1000, unknownKeys };
  const codecOptions = options.limits === undefined ? {} : { limits: options.limits };

  // Compiled once, at the call: every rule was checked when its method was built.
  const groups = new Map<string, { verb: string; url: string; routes: Route[] }>();
  for (const [method, schema] of Object.entries(service.methods) as [string, MethodSchema][]) {
    if (schema.http === undefined) continue;
    const input = createProtoJsonCodec({
      ...codecOptions,
      schema: schema.input,
      ignoreUnknownFields: unknownKeys === 'ignore',
    });
    for (const binding of parseHttpRule(schema.http, schema.input, schema.output)) {
      // A response body field is answered even at its default: the body is that value.
      const emitDefaults = options.emitDefaults === true || binding.responseBody !== undefined;
      const reply = createProtoJsonCodec({ schema: schema.output, emitDefaults });
      const verb = binding.verb.toUpperCase();
      const url = routeUrlOf(binding.template);
      const key = `${verb} ${url}`;
      const group = groups.get(key) ?? { verb, url, routes: [] };
      group.routes.push({
        method,
        binding,
        binder: new RequestBinder(binding, schema.input, input, limits),
        reply,
        transcoders: new WeakMap(),
        output: schema.output,
        emitDefaults,
      });
      groups.set(key, group);
    }
  }
  if (groups.size === 0) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `rpcGateway: no method of ${service.name} has an http mapping (t.unary(..., { http: { get: '/v1/...' } })).`,
    );
  }
  for (const group of groups.values())
    group.routes.sort((a, b) => bySpecificity(a.binding.template, b.binding.template));

  const answer = async (
    route: Route,
    request: FastifyRequest,
    reply: FastifyReply,
    values: ReturnType<typeof matchPath>,
    query: string,
  ) => {
    let value: unknown;
    try {
      // The ProtoJSON decoder holds every value to the schema's rules (lengths, ranges, item
      // counts) with the field's path, so no second validation pass follows.
      value = route.binder.bind(values ?? [], query, request.body as Buffer | undefined);
    } catch (error) {
      return sendRecord(reply, httpErrorOf(error, true));
    }
    let result: unknown;
    try {
      result = await call(route.method, value, {
        signal: leaveSignal(reply),
        timeoutMs,
        headers: forwardedHeaders(request, listed),
      });
    } catch (error) {
      const { record, internal } = gatewayErrorOf(error);
      if (internal) request.log.error({ err: error }, `rpcGateway: ${route.method} failed`);
      return sendRecord(reply, record);
    }
    let bytes: Uint8Array | undefined;
    if (result instanceof EncodedReply) {
      try {
        bytes = transcoderOf(route, result.options).transcode(result.bytes);
      } catch {
        // The bytes do not decode, or their value has no ProtoJSON form: decoded as the client would
        // have, so that the answer is the one a decoded reply gets (the call's failure, or below).
        try {
          result = result.decode();
        } catch (error) {
          const { record, internal } = gatewayErrorOf(error);
          if (internal) request.log.error({ err: error }, `rpcGateway: ${route.method} failed`);
          return sendRecord(reply, record);
        }
      }
    }
    try {
      bytes ??= route.reply.encode(result);
    } catch (error) {
      request.log.error({ err: error }, `rpcGateway: the reply of ${route.method} does not fit its schema`);
      return sendRecord(reply, httpErrorOf(error, false));
    }
    const field = route.binding.responseBody;
    const body =
      field === undefined
        ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        : JSON.stringify(
            (JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>)[jsonNameOf(field)] ??
              null,
          );
    return reply.code(200).header('content-type', jsonType).send(body);
  };

  return async function gatewayPlugin(app: FastifyInstance): Promise<void> {
    const prefix = app.prefix;
    // The body is read as bytes and decoded by the route's binding; JSON is the only type read.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(jsonType, { parseAs: 'buffer', bodyLimit }, (_request, body, done) =>
      done(null, body),
    );
    app.setErrorHandler((error, request, reply) => {
      const rules = { types: [jsonType], limit: bodyLimit, contentType: request.headers['content-type'] };
      const record = httpErrorOf(fastifyRefusal(error, rules) ?? error, true);
      if (record.status >= 500) request.log.error({ err: error }, 'rpcGateway: request failed');
      return sendRecord(reply, record);
    });
    for (const group of groups.values()) {
      app.route({
        method: group.verb as 'GET',
        url: group.url,
        bodyLimit,
        handler: async (request, reply) => {
          const url = request.raw.url ?? '/';
          const mark = url.indexOf('?');
          const rawPath = mark < 0 ? url : url.slice(0, mark);
          const path = rawPath.startsWith(prefix) ? rawPath.slice(prefix.length) || '/' : rawPath;
          const query = mark < 0 ? '' : url.slice(mark + 1);
          for (const route of group.routes) {
            let values: ReturnType<typeof matchPath>;
            try {
              values = matchPath(route.binding.template, path);
            } catch (error) {
              return sendRecord(reply, httpErrorOf(error, true));
            }
            if (values !== undefined) return answer(route, request, reply, values, query);
          }
          return reply.callNotFound();
        },
      });
    }
  };
}
