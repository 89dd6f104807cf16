/**
 * A unary call of the Connect protocol, served with wirekit's codecs: a POST whose body is the
 * request in the codec `application/<codec>` names, or, for a method marked NO_SIDE_EFFECTS, a GET
 * carrying it in the query (`?connect=v1&encoding=<codec>&message=…&base64=1&compression=…`), so a
 * browser or a CDN can cache it. The reply is a 200 in the request's codec, or Connect's JSON error
 * body under the HTTP status of its code. It is Connect-ES's own unary pipeline
 * (protocol-connect/handler-factory.js) with wirekit's serializations, codec names beyond
 * proto|json, and an expired deadline refused before the handler runs.
 */

import type { Code, MethodImplSpec } from '@connectrpc/connect';
import type {
  compressionNegotiate,
  UniversalServerRequest,
  UniversalServerResponse,
} from '@connectrpc/connect/protocol';
import { fromBase64 } from '../../../util/base64.js';
import { codecOfContentType, contentTypeOf, type RpcCodecName } from '../message-formats.js';
import { connectHttpStatusOf, type GrpcStatusName, grpcStatusCodes } from '../status-codes.js';
import { callErrorOf, expiredDeadlineError } from './call-error.js';
import { connectRuntime } from './connect-runtime.js';
import type { BoxedReply } from './handler-options.js';
import type { MethodSerialization, ValidatedHandlerOptions } from './method-serialization.js';

type Compression = NonNullable<ReturnType<typeof compressionNegotiate>['request']>;

const protocolName = 'connect';
/** The query parameters of a Connect GET. */
const param = {
  version: 'connect',
  encoding: 'encoding',
  message: 'message',
  base64: 'base64',
  compression: 'compression',
};

const statusNameOf = new Map<number, GrpcStatusName>(
  Object.entries(grpcStatusCodes).map(([name, code]) => [code, name as GrpcStatusName]),
);

/** The HTTP status of a failed Connect unary call, by wirekit's status table. */
export function httpStatusOf(code: Code): number {
  return connectHttpStatusOf(statusNameOf.get(code) ?? 'UNKNOWN');
}

/** Whether Connect lets this method be called with GET (idempotency NO_SIDE_EFFECTS). */
export function allowsGet(spec: MethodImplSpec): boolean {
  return spec.method.idempotency === noSideEffects;
}

export function createConnectUnaryHandler(
  opt: ValidatedHandlerOptions,
  codecs: readonly RpcCodecName[],
  spec: MethodImplSpec,
  serialization: MethodSerialization,
): (request: UniversalServerRequest) => Promise<UniversalServerResponse> {
  const { createHandlerContext } = connectRuntime().connect;
  const {
    errorToJsonBytes,
    headerContentType,
    headerTimeout,
    headerUnaryAcceptEncoding,
    headerUnaryContentLength,
    headerUnaryEncoding,
    parseTimeout,
    trailerMux,
  } = connectRuntime().connectProtocol;
  const {
    compressionNegotiate,
    createAsyncIterable,
    invokeUnaryImplementation,
    uResponseMethodNotAllowed,
    uResponseUnsupportedMediaType,
  } = connectRuntime().protocol;
  return async function handle(req) {
    const isGet = req.method === 'GET';
    if (isGet && !allowsGet(spec)) return uResponseMethodNotAllowed;
    // A GET's message and options travel in the query; a POST's query is not read.
    const query = isGet ? new URL(req.url).searchParams : new URLSearchParams();
    const codec = isGet
      ? codecOfQuery(query.get(param.encoding), codecs)
      : codecOfContentType('connect-unary', req.header.get(headerContentType) ?? '')?.codec;
    if (codec === undefined || !codecs.includes(codec)) return uResponseUnsupportedMediaType;
    const timeout = parseTimeout(req.header.get(headerTimeout), opt.maxTimeoutMs);
    const context = createHandlerContext({
      ...spec,
      service: spec.method.parent,
      requestMethod: req.method,
      protocolName,
      timeoutMs: timeout.timeoutMs,
      shutdownSignal: opt.shutdownSignal,
      requestSignal: req.signal,
      requestHeader: req.header,
      url: req.url,
      responseHeader: { [headerContentType]: contentTypeOf('connect-unary', codec) },
      contextValues: req.contextValues,
    });
    const compression = compressionNegotiate(
      opt.acceptCompression,
      isGet ? query.get(param.compression) : req.header.get(headerUnaryEncoding),
      req.header.get(headerUnaryAcceptEncoding),
      headerUnaryAcceptEncoding,
    );
    let status = 200;
    let body: Uint8Array;
    try {
      if (opt.requireConnectProtocolHeader) requireProtocolVersion(req, query, isGet);
      // Each refusal is answered as a Connect error before the request is read or the handler runs.
      const refusal = compression.error ?? timeout.error ?? expiredDeadlineError(timeout.timeoutMs);
      if (refusal !== undefined) throw refusal;
      const bytes = isGet
        ? await readQueryMessage(query, compression.request, opt.readMaxBytes)
        : await readBodyMessage(req, compression.request, opt.readMaxBytes);
      const input = serialization.input(codec).parse(bytes);
      // Connect's invoker is typed for protobuf-es messages; wirekit's values pass through it as they are.
      const output = await invokeUnaryImplementation(
        spec as Extract<MethodImplSpec, { kind: 'unary' }>,
        context,
        input as never,
        opt.interceptors,
      );
      body = serialization.output(codec).serialize(output as unknown as BoxedReply);
    } catch (thrown) {
      const error = callErrorOf(thrown);
      context.abort(error);
      status = httpStatusOf(error.code);
      context.responseHeader.set(headerContentType, contentTypeOf('connect-unary', 'json'));
      for (const [key, value] of error.metadata) context.responseHeader.set(key, value);
      body = errorToJsonBytes(error, opt.jsonOptions ?? {});
    } finally {
      context.abort();
    }
    if (compression.response !== null && body.byteLength >= opt.compressMinBytes) {
      body = await compression.response.compress(body);
      context.responseHeader.set(headerUnaryEncoding, compression.response.name);
    }
    const header = trailerMux(context.responseHeader, context.responseTrailer);
    header.set(headerUnaryContentLength, body.byteLength.toString(10));
    return { status, header, body: createAsyncIterable([body]) };
  };
}

/** A GET's `encoding` parameter: a codec name the server offers, or undefined (415). */
function codecOfQuery(encoding: string | null, codecs: readonly RpcCodecName[]): RpcCodecName | undefined {
  return codecs.find((codec) => codec === encoding);
}

/** Connect-Protocol-Version (POST) or `connect=v1` (GET), when the server requires it. */
function requireProtocolVersion(req: UniversalServerRequest, query: URLSearchParams, isGet: boolean): void {
  const { Code, ConnectError } = connectRuntime().connect;
  const { headerProtocolVersion, protocolVersion } = connectRuntime().connectProtocol;
  const [got, expected, where] = isGet
    ? [query.get(param.version), `v${protocolVersion}`, `the ${param.version} parameter`]
    : [req.header.get(headerProtocolVersion), protocolVersion, headerProtocolVersion];
  if (got !== expected) {
    throw new ConnectError(
      `${where} must be "${expected}", got ${JSON.stringify(got)}`,
      Code.InvalidArgument,
    );
  }
}

async function readBodyMessage(
  req: UniversalServerRequest,
  compression: Compression | null,
  readMaxBytes: number,
): Promise<Uint8Array> {
  const { Code, ConnectError } = connectRuntime().connect;
  const { headerUnaryContentLength } = connectRuntime().connectProtocol;
  const { readAllBytes } = connectRuntime().protocol;
  const body = req.body;
  let bytes: Uint8Array;
  if (body instanceof Uint8Array) {
    bytes = body;
  } else if (typeof body === 'object' && body !== null && Symbol.asyncIterator in body) {
    bytes = await readAllBytes(body, readMaxBytes, req.header.get(headerUnaryContentLength));
  } else {
    // A framework that parses JSON bodies itself would hand over numbers already rounded (an int64
    // past 2^53): refuse rather than read a second-hand value.
    throw new ConnectError('the request body was parsed before the RPC handler could read it', Code.Internal);
  }
  return compression === null ? bytes : compression.decompress(bytes, readMaxBytes);
}

/**
 * `google.protobuf.MethodOptions.IdempotencyLevel.NO_SIDE_EFFECTS`, the level that lets a Connect
 * client call a method with GET (written as its number: protobuf-es, which names it, is a peer this
 * module does not load).
 */
const noSideEffects = 1;

/** A GET's base64 message: base64url (Connect's form, padded or not) or standard base64, strictly. */
function queryBytes(message: string): Uint8Array {
  const bytes = fromBase64(message) ?? fromBase64(message.replace(/=+$/, ''));
  if (bytes !== undefined) return bytes;
  const { Code, ConnectError } = connectRuntime().connect;
  throw new ConnectError('the message query parameter is not base64', Code.InvalidArgument);
}

/** A GET's message: base64url bytes with `base64=1`, else the text itself (JSON), maybe compressed. */
async function readQueryMessage(
  query: URLSearchParams,
  compression: Compression | null,
  readMaxBytes: number,
): Promise<Uint8Array> {
  const message = query.get(param.message) ?? '';
  const bytes = query.get(param.base64) === '1' ? queryBytes(message) : new TextEncoder().encode(message);
  return compression === null ? bytes : compression.decompress(bytes, readMaxBytes);
}
