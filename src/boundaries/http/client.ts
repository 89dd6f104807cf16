/**
 * A typed client over `fetch` (Node's or the browser's) for routes served by the wirekit plugin, or
 * any server that speaks the same formats. It picks one format, sets `Accept` and `Content-Type`,
 * encodes bodies, decodes replies into the schema's type, and turns error responses back into
 * WirekitErrors with the server's code. Streamed replies are iterated as their bytes arrive.
 *
 *   const api = createClient({ baseUrl: 'http://users.internal:3001', codecs: [msgpackFormat] });
 *   const users = await api.get('/users', { reply: t.array(User) });
 *   for await (const row of api.stream('/timeseries', { row: Reading })) plot(row);
 *
 * Only web APIs are used here (fetch, streams, CompressionStream), and nothing below reaches Node,
 * so the module bundles for a browser as it is. The client is handed the formats it speaks
 * (`msgpackFormat` from `wirekit-ts/msgpack`), and loads no other format's code nor the library
 * beneath it; a page can hand it formats loaded on first use (`lazyFormat('arrow')`), so that one
 * that speaks only JSON never fetches Arrow's code.
 */
import type { RecordBatch } from 'apache-arrow';
import type { ArrowCodec } from '../../codecs/arrow/index.js';
import type { Codec, FormatName } from '../../codecs/core/codec.js';
import type { FormatEntry, LazyFormatEntry } from '../../codecs/core/format-entry.js';
import { type DecodeLimits, resolveLimits } from '../../codecs/core/limits.js';
import { codecFormat, defaultFormat, factsOf, findFormat, formatNeedsSchema } from '../../codecs/formats.js';
import { WirekitError } from '../../errors/index.js';
import { essenceOf } from '../../negotiate/index.js';
import {
  type Infer,
  type InferInput,
  type ObjectSchema,
  type Schema,
  t,
  withDefaults,
} from '../../schema/index.js';
import { joinBytes } from '../../util/join-bytes.js';
import { fetchFailure } from './connection-error.js';
import {
  type EndpointInput,
  type EndpointOutput,
  type EndpointSpec,
  fillPath,
  type InputArgs,
} from './endpoint.js';
import { listFormOf, listForms, rowsOf } from './list-forms.js';
import { toText } from './text-parts.js';
import { errorFormatOf, HttpError, HttpResponseError } from './wire-error.js';

export interface ClientOptions {
  /** Prefixed to every path, e.g. `http://users.internal:3001`. */
  readonly baseUrl: string;
  /**
   * The formats this client reads and writes: each format's entry (`jsonFormat` from
   * `wirekit-ts/json`, `allFormats` from `wirekit-ts/codecs` for every one), or an entry loaded on
   * first use (`lazyFormat('arrow')`). It loads no other format's code. A reply or an error record
   * in a format not among them is refused (WK_UNKNOWN_FORMAT) or, for an error, reported by its
   * status alone (WK_HTTP_STATUS): give JSON too, in which servers refuse what they cannot answer.
   */
  readonly codecs: readonly (FormatEntry | LazyFormatEntry)[];
  /**
   * The format to speak, one of `codecs` (default: the first). Formats without names on the wire
   * need schemas per call; a call without one goes in JSON, when JSON is among `codecs`.
   */
  readonly format?: FormatName;
  /** Defaults to the global fetch. */
  readonly fetch?: typeof fetch;
  /** Sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Decode limits for replies; `maxInputBytes` also caps how much of a reply is read. */
  readonly limits?: Partial<DecodeLimits>;
  /** gzip request bodies of at least this many bytes (off by default: the server must accept it). */
  readonly gzipRequestsFrom?: number;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
  /** Query parameters, appended to the path; an array is a key repeated once per item. */
  readonly query?: Readonly<Record<string, QueryValue | readonly QueryValue[] | undefined>>;
}

type QueryValue = string | number | bigint | boolean | Date;

type Out<R extends Schema | undefined> = R extends Schema ? Infer<R> : unknown;

export interface WirekitClient {
  readonly format: FormatName;
  get<R extends Schema | undefined = undefined>(
    path: string,
    options?: CallOptions & { readonly reply?: R },
  ): Promise<Out<R>>;
  /** A field of `body` with a default may be left out: the client fills it in before encoding. */
  post<B extends Schema | undefined = undefined, R extends Schema | undefined = undefined>(
    path: string,
    body: B extends Schema ? InferInput<B> : unknown,
    options?: CallOptions & { readonly body?: B; readonly reply?: R },
  ): Promise<Out<R>>;
  request<B extends Schema | undefined = undefined, R extends Schema | undefined = undefined>(
    method: string,
    path: string,
    options?: CallOptions & { readonly body?: B; readonly value?: unknown; readonly reply?: R },
  ): Promise<Out<R>>;
  /** The rows of a streamed reply, each as soon as its bytes have arrived. */
  stream<S extends ObjectSchema>(
    path: string,
    options: CallOptions & { readonly row: S },
  ): AsyncIterable<Infer<S>>;
  /** An Arrow stream's record batches as they arrive, zero-copy columns for readers that want them. */
  batches(path: string, options: CallOptions & { readonly row: ObjectSchema }): AsyncIterable<RecordBatch>;
  /**
   * Calls an endpoint (`endpoint()`): its path parameters filled into its URL, its query and
   * headers written as text, its body encoded; the reply (or a stream's rows, read whole) typed
   * from the same definition the server's route uses.
   */
  call<E extends EndpointSpec>(endpoint: E, ...input: InputArgs<E>): Promise<EndpointOutput<E>>;
}

/** Error bodies past this many bytes are not read whole (a proxy's HTML page, say). */
const maxErrorBytes = 64 * 1024;

export function createClient(options: ClientOptions): WirekitClient {
  const given = new Map<FormatName, FormatEntry | LazyFormatEntry>(
    options.codecs.map((entry) => [entry.name, entry]),
  );
  const format = options.format ?? options.codecs[0]?.name ?? defaultFormat;
  checkCodecs(given, format);
  checkBaseUrl(options.baseUrl);
  const doFetch = options.fetch ?? globalThis.fetch;
  const limits = resolveLimits(options.limits);
  const base = options.baseUrl.replace(/\/+$/, '');
  const entries = new Map<FormatName, Promise<FormatEntry>>();
  const codecs = new Map<Schema | undefined, Map<string, Promise<Codec<unknown>>>>();
  const errorCodecs = new Map<FormatName, Promise<Codec<HttpError>>>();
  const listsOfRows = new WeakMap<ObjectSchema, Schema>();

  /** The entry of a format this client was given, loaded on first use if it was given lazily. */
  const entryOf = (name: FormatName): Promise<FormatEntry> => {
    const entry = given.get(name);
    if (entry === undefined) {
      const known = [...given.keys()].join(', ');
      return Promise.reject(
        new WirekitError(
          'WK_UNKNOWN_FORMAT',
          `this client was given no ${name} codec (it has ${known}); add ${name}'s entry to its codecs.`,
        ),
      );
    }
    return kept(entries, name, async () => ('create' in entry ? entry : entry.load()));
  };

  /**
   * One codec per (format, schema), its format's code loaded on first use. A format that carries
   * only rows (Arrow) has the codec of the row for a list of them.
   */
  const codecOf = (name: FormatName, schema: Schema | undefined): Promise<Codec<unknown>> => {
    let perSchema = codecs.get(schema);
    if (perSchema === undefined) {
      perSchema = new Map();
      codecs.set(schema, perSchema);
    }
    const rowsOnly = factsOf(name).carries === 'rows';
    const codecSchema = rowsOnly && schema?.kind === 'array' ? schema.items : schema;
    return kept(perSchema, name, async () => {
      codecFormat(name, codecSchema);
      return (await entryOf(name)).create({ schema: codecSchema, limits });
    });
  };

  /** The Arrow codec of a row schema, for record batches, made once per schema. */
  const arrowCodecOf = async (row: ObjectSchema): Promise<ArrowCodec> =>
    (await codecOf('arrow', row)) as unknown as ArrowCodec;

  /**
   * The codec of error records in `name`, with the default limits (error bodies are read up to
   * maxErrorBytes), or undefined when the client has no codec of that format.
   */
  const errorCodecOf = (name: FormatName): Promise<Codec<HttpError>> | undefined => {
    const written = errorFormatOf(name);
    if (!given.has(written)) return undefined;
    return kept(errorCodecs, written, async () =>
      (await entryOf(written)).create({ schema: HttpError }),
    ) as Promise<Codec<HttpError>>;
  };

  const urlOf = (path: string, query: CallOptions['query']): string => {
    let url = base + (path.startsWith('/') ? path : `/${path}`);
    if (query !== undefined) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) params.append(key, toText(item));
      }
      url += (url.includes('?') ? '&' : '?') + params.toString();
    }
    return url;
  };

  const send = async (
    method: string,
    path: string,
    accept: string,
    call: CallOptions,
    body?: { readonly bytes: Uint8Array; readonly type: string },
  ): Promise<Response> => {
    const headers: Record<string, string> = { ...options.headers, ...call.headers, accept };
    let payload: Uint8Array | undefined = body?.bytes;
    if (body !== undefined) {
      headers['content-type'] = body.type;
      if (options.gzipRequestsFrom !== undefined && body.bytes.length >= options.gzipRequestsFrom) {
        payload = await gzip(body.bytes);
        headers['content-encoding'] = 'gzip';
      }
    }
    const url = urlOf(path, call.query);
    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        headers,
        ...(payload && { body: payload }),
        ...(call.signal && { signal: call.signal }),
      });
    } catch (error) {
      throw fetchFailure(method, url, error, call.signal);
    }
    if (!response.ok) throw await errorOf(response, errorCodecOf);
    return response;
  };

  /** The reply's format: the one asked for, or what the server says it sent. */
  const replyCodec = (response: Response, schema: Schema | undefined): Promise<Codec<unknown>> => {
    const type = response.headers.get('content-type') ?? '';
    const name = findFormat(essenceOf(type)) ?? format;
    return codecOf(name, schema);
  };

  /** `t.array(row)`, one per row schema, so that its codecs are made once. */
  const listOf = (row: ObjectSchema): Schema => {
    let list = listsOfRows.get(row);
    if (list === undefined) {
      list = t.array(row);
      listsOfRows.set(row, list);
    }
    return list;
  };

  /**
   * A list of rows, read whole (under maxInputBytes) in whichever form it came: one value of its
   * format, or the rows' sequence.
   */
  const readList = async (
    response: Response,
    list: Schema,
    row: ObjectSchema,
    signal: AbortSignal | undefined,
  ): Promise<unknown[]> => {
    const type = essenceOf(response.headers.get('content-type') ?? '');
    const form = listFormOf(type);
    const bytes = await readAll(response, limits.maxInputBytes, signal);
    // Rows one after another, unless the format's sequence is the one value (an Arrow stream).
    if (form !== undefined && !form.whole && factsOf(form.format).sequences !== 'table') {
      const rows: unknown[] = [];
      const codec = await codecOf(form.format, row);
      for await (const value of codec.decodeStream(once(bytes))) rows.push(value);
      return rows;
    }
    return (await codecOf(form?.format ?? findFormat(type) ?? format, list)).decode(bytes) as unknown[];
  };

  const request: WirekitClient['request'] = async (method, path, call = {}) => {
    let body: { bytes: Uint8Array; type: string } | undefined;
    if ('value' in call) {
      const codec = await codecOf(schemaFormat(format, call.body, given), call.body);
      // Defaults are filled in here, whatever the format: not every format's decoder can.
      const value = call.body === undefined ? call.value : withDefaults(call.body, call.value as never);
      body = { bytes: codec.encode(value), type: codec.mediaType };
    }
    const rows = rowsOf(call.reply);
    if (rows !== undefined && call.reply !== undefined) {
      // A list of rows: asked for as one value, or else as the rows' sequence, which is all that
      // a streamed route can send where the whole form needs every row first.
      const { whole, sequence } = listForms[format];
      const accept = whole.length > 0 ? `${whole[0]}, ${sequence[0]};q=0.9` : (sequence[0] as string);
      const response = await send(method, path, accept, call, body);
      return (await readList(response, call.reply, rows, call.signal)) as never;
    }
    const accept = (await codecOf(schemaFormat(format, call.reply, given), call.reply)).mediaType;
    const response = await send(method, path, accept, call, body);
    const bytes = await readAll(response, limits.maxInputBytes, call.signal);
    if (bytes.length === 0 && call.reply === undefined) return undefined as never;
    return (await replyCodec(response, call.reply)).decode(bytes) as never;
  };

  const callEndpoint = async <E extends EndpointSpec>(
    endpoint: E,
    input: EndpointInput<E> | undefined,
  ): Promise<EndpointOutput<E>> => {
    const given = (input ?? {}) as {
      params?: Record<string, unknown>;
      query?: CallOptions['query'];
      headers?: Record<string, unknown>;
      body?: unknown;
      signal?: AbortSignal;
    };
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(given.headers ?? {})) {
      if (value !== undefined)
        headers[name] = Array.isArray(value) ? value.map(toText).join(', ') : toText(value);
    }
    const reply = endpoint.stream === undefined ? endpoint.reply : listOf(endpoint.stream);
    return request(endpoint.method, fillPath(endpoint.url, given.params), {
      ...(endpoint.body !== undefined && { body: endpoint.body, value: given.body }),
      ...(reply && { reply }),
      ...(given.query && { query: given.query }),
      headers,
      ...(given.signal && { signal: given.signal }),
    }) as Promise<EndpointOutput<E>>;
  };

  return {
    format,
    call: (endpoint, ...[input]) => callEndpoint(endpoint, input),
    get: (path, call = {}) => request('GET', path, call),
    post: (path, value, call = {}) => request('POST', path, { ...call, value }),
    request,
    async *stream(path, call) {
      // The rows' sequence, read as it arrives; the list as one value only if nothing else is sent.
      const { whole, sequence } = listForms[format];
      const accept = whole.length > 0 ? `${sequence[0]}, ${whole[0]};q=0.5` : (sequence[0] as string);
      const response = await send('GET', path, accept, call);
      if (response.body === null) return;
      const form = listFormOf(essenceOf(response.headers.get('content-type') ?? ''));
      if (form !== undefined && !form.whole) {
        const body = response.body;
        // A codec that cannot be loaded leaves no reply open behind it.
        const codec = await codecOf(form.format, call.row).catch(async (error: unknown) => {
          await body.cancel().catch(() => undefined);
          throw error;
        });
        yield* decodeBody(body, call.signal, (chunks) => codec.decodeStream(chunks)) as AsyncIterable<never>;
        return;
      }
      yield* (await readList(response, listOf(call.row), call.row, call.signal)) as never[];
    },
    async *batches(path, call) {
      const codec = await arrowCodecOf(call.row);
      const response = await send('GET', path, codec.streamMediaType, call);
      if (response.body === null) return;
      // The codec refuses a stream that ends without its end-of-stream marker (WK_DECODE_TRUNCATED),
      // so a reply cut at a batch boundary is never taken for the whole table.
      yield* decodeBody(response.body, call.signal, (chunks) => codec.decodeBatches(chunks));
    },
  };
}

/**
 * The format to use for values of `schema`: the client's, unless it needs a schema and there is
 * none (a call without `reply`), when JSON is asked for instead if the client has it (else the
 * codec's own check refuses the call: WK_SCHEMA_REQUIRED).
 */
function schemaFormat(
  format: FormatName,
  schema: Schema | undefined,
  given: ReadonlyMap<FormatName, unknown>,
): FormatName {
  return schema === undefined && formatNeedsSchema(format) && given.has(defaultFormat)
    ? defaultFormat
    : format;
}

/**
 * Refuses, when the client is made, codecs that cannot serve it: none at all, a format to speak
 * that is not among them, or one whose errors travel in a format that is not (Arrow's, in JSON).
 * Codes as for other options that cannot work.
 */
function checkCodecs(given: ReadonlyMap<FormatName, unknown>, format: FormatName): void {
  if (given.size === 0) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      'a client needs the codecs of the formats it speaks, e.g. createClient({ baseUrl, codecs: [jsonFormat] }).',
    );
  }
  if (!given.has(format)) {
    throw new WirekitError(
      'WK_UNKNOWN_FORMAT',
      `the client speaks ${format} but was given no ${format} codec; add its entry to codecs.`,
    );
  }
  const errorsIn = errorFormatOf(format);
  if (!given.has(errorsIn)) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `a server sends its errors to a ${format} client in ${errorsIn}: give the client the ${errorsIn} codec too.`,
    );
  }
}

/**
 * Refuses a base URL with a user name or password: fetch refuses every request to such a URL
 * (credentials go in an Authorization header), so the mistake is reported once, when the client
 * is made, and never reaches an error message or a log.
 */
function checkBaseUrl(baseUrl: string): void {
  if (!URL.canParse(baseUrl)) return; // relative, resolved by a browser's fetch against the page
  const url = new URL(baseUrl);
  if (url.username !== '' || url.password !== '') {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `the client's baseUrl holds a user name or password, which fetch refuses to send; give them in an Authorization header (headers: { authorization: ... }) and a baseUrl without them (${url.origin}).`,
    );
  }
}

/**
 * Reads a body whole, refusing one larger than `max` (by its Content-Length, or while reading); a
 * body that breaks off is WK_DECODE_TRUNCATED, as in bodyChunks.
 */
async function readAll(response: Response, max: number, signal?: AbortSignal): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > max) {
    await response.body?.cancel();
    throw new WirekitError(
      'WK_LIMIT_INPUT',
      `the reply declares ${declared} bytes; maxInputBytes is ${max}.`,
    );
  }
  if (response.body === null) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of bodyChunks(response.body, signal)) {
    size += chunk.length;
    if (size > max)
      throw new WirekitError('WK_LIMIT_INPUT', `the reply is larger than maxInputBytes (${max}).`);
    parts.push(chunk);
  }
  return parts.length === 1 ? (parts[0] as Uint8Array) : joinBytes(parts, size);
}

/**
 * A reply body's chunks as they arrive. A read that fails is the connection breaking off (the
 * server went away mid-reply; fetch's reader rejects with a TypeError such as "terminated" in Node
 * or "network error" in a browser): it becomes WK_DECODE_TRUNCATED, naming how many bytes had
 * arrived, so that every decoder reports it alike. An abort the caller asked for throws the
 * signal's reason, as fetch does. A reader that stops early cancels the body.
 */
async function* bodyChunks(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let received = 0;
  let finished = false;
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        finished = true;
        if (signal?.aborted) throw signal.reason ?? error;
        throw brokenOff(error, received);
      }
      if (next.done) {
        finished = true;
        return;
      }
      received += next.value.length;
      yield next.value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

/**
 * Rows or record batches decoded from a body as it arrives (through bodyChunks). A decoder may
 * wrap an error of its source (Arrow gives anything that is no WirekitError a code): the caller's
 * abort is the signal's reason whichever format read the body.
 */
async function* decodeBody<T>(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
  decode: (chunks: AsyncIterable<Uint8Array>) => AsyncIterable<T>,
): AsyncGenerator<T> {
  try {
    yield* decode(bodyChunks(body, signal));
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw error;
  }
}

function brokenOff(error: unknown, received: number): WirekitError {
  let reason = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && cause.message !== '') reason += `: ${cause.message}`;
  return new WirekitError('WK_DECODE_TRUNCATED', `the reply broke off after ${received} bytes (${reason}).`, {
    offset: received,
    cause: error,
  });
}

/**
 * The HttpResponseError for an error response, decoding its body when it holds a wirekit error in a
 * format the client has a codec of.
 */
async function errorOf(
  response: Response,
  errorCodecOf: (format: FormatName) => Promise<Codec<HttpError>> | undefined,
): Promise<HttpResponseError> {
  let bytes: Uint8Array = new Uint8Array(0);
  try {
    bytes = await readAll(response, maxErrorBytes);
  } catch {
    // Too large or cut short: report the status alone.
  }
  const name = findFormat(essenceOf(response.headers.get('content-type') ?? ''));
  // A format that carries only rows holds no error record.
  const codec = name !== undefined && factsOf(name).carries === 'any' ? errorCodecOf(name) : undefined;
  if (codec !== undefined && bytes.length > 0) {
    try {
      return new HttpResponseError((await codec).decode(bytes));
    } catch {
      // Not a wirekit error record: fall through.
    }
  }
  const record = {
    status: response.status,
    code: 'WK_HTTP_STATUS',
    message: `HTTP ${response.status} ${response.statusText}`,
  };
  return new HttpResponseError(record, bytes.subarray(0, 1024));
}

interface PromiseStore<K, V> {
  get(key: K): Promise<V> | undefined;
  set(key: K, value: Promise<V>): unknown;
  delete(key: K): unknown;
}

/**
 * The promise kept under `key`, else a new one from `load`, kept unless it fails: a failed load (a
 * chunk that could not be fetched) is asked for again by the next call rather than replayed; the
 * module system decides whether it fetches again (browsers keep a module that failed).
 */
function kept<K, V>(store: PromiseStore<K, V>, key: K, load: () => Promise<V>): Promise<V> {
  let value = store.get(key);
  if (value === undefined) {
    const loading = load();
    loading.catch(() => store.delete(key));
    store.set(key, loading);
    value = loading;
  }
  return value;
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
