/**
 * The one registry of wirekit error codes. A code is a stable contract: callers branch on it, so a
 * code is never renamed or reused once released. `docs/errors.md` documents every code listed here,
 * and `test/errors/registry.test.ts` fails when the two drift apart.
 */
export const errorCodes = {
  WK_SCHEMA_INVALID: 'A schema builder was given arguments that cannot form a valid schema.',
  WK_OPTIONS_INVALID:
    'An option or argument of a codec, limit, compressor, cache, table source or route cannot work.',
  WK_PEER_MISSING:
    'A function needs an optional peer package (ioredis, kafkajs, the NATS client, DuckDB, pg, prom-client, @fastify/websocket) that is not installed.',
  WK_SCHEMA_FIELD_ID: 'Two fields of one object share a field number, or a number is out of range.',
  WK_SCHEMA_NAME_CONFLICT: 'Two different named types (object, enum, union) in one schema share a name.',
  WK_SCHEMA_UNRESOLVED_REF: 'A reference names a type that the schema does not define.',
  WK_SCHEMA_JSON_INVALID: "A schema's JSON form is malformed or names an unknown kind.",
  WK_SCHEMA_IMPORT:
    'A schema file in another language (.proto, .avsc, JSON Schema) cannot be imported: it does not parse, is past a limit, or uses a feature wirekit does not read.',
  WK_EXPORT_UNSUPPORTED: 'The target format cannot express a kind or name used by the schema.',
  WK_VALIDATION_FAILED: 'A value does not match its schema.',
  WK_JSON_VALUE_INVALID: "A JSON value does not follow the schema's JSON form of values.",
  WK_INFER_NO_SAMPLES: 'Schema inference was given no samples to infer from.',
  WK_CLI_USAGE: 'A command-line call is missing an argument or has an unknown flag.',
  WK_CLI_INPUT: 'A command-line input file cannot be read or parsed.',
  WK_DECODE_TRUNCATED: 'The input ends inside a value.',
  WK_DECODE_MALFORMED: 'The input holds bytes that the format does not allow.',
  WK_DECODE_TRAILING: 'Bytes are left over after a complete value.',
  WK_DECODE_SCHEMA_MISMATCH:
    'Well-formed input that does not match the schema (wire type, enum index, union branch).',
  WK_DECODE_UNSAFE_KEY: 'A decoded map or object has a __proto__, constructor or prototype key.',
  WK_DECODE_UNKNOWN_EXTENSION: 'An extension type or tag that the decoder does not know.',
  WK_LIMIT_INPUT: 'The input is larger than maxInputBytes.',
  WK_LIMIT_DEPTH: 'Values are nested deeper than maxDepth.',
  WK_LIMIT_LENGTH: 'A string or byte string is longer than maxStringBytes or maxBytesLength.',
  WK_LIMIT_ELEMENTS: 'More array items and map entries than maxElements.',
  WK_LIMIT_ALLOCATION: 'The decoded value would take more heap than maxAllocatedBytes.',
  WK_LIMIT_DECOMPRESSED: 'Decompressed data would exceed maxDecompressedBytes.',
  WK_ENCODE_UNSUPPORTED:
    'The value holds something the format cannot carry (a lone surrogate, a function, a cycle).',
  WK_COMPRESSION_FAILED: 'A compressor rejected its input as corrupt.',
  WK_ENVELOPE_INVALID: 'An envelope header is missing, truncated or names an unknown format or compression.',
  WK_ENVELOPE_VERSION: 'An envelope was written by a newer wirekit whose version this one cannot read.',
  WK_ENVELOPE_SCHEMA: "An envelope's schema fingerprint differs from the schema given to read it.",
  WK_UNKNOWN_FORMAT: 'No codec (or compressor) is registered under the requested name, media type or id.',
  WK_SCHEMA_REQUIRED:
    'The format needs a schema (Protocol Buffers, Avro, FlatBuffers; Arrow to encode) and none was given.',
  WK_HTTP_NOT_ACCEPTABLE: "None of the media types the route offers is acceptable to the request's Accept.",
  WK_HTTP_UNSUPPORTED_MEDIA_TYPE:
    'The request body has a Content-Type or Content-Encoding the route does not read.',
  WK_HTTP_BODY_TOO_LARGE: "The request body is larger than the route's body limit.",
  WK_HTTP_BODY_REQUIRED: 'The route reads a request body and the request came without one.',
  WK_HTTP_STATUS:
    'An HTTP error that is no wirekit error: a status without a wirekit error body, or a server failure.',
  WK_HTTP_CONNECTION_FAILED:
    'An HTTP request got no response: the connection was refused, the host not found, the connect timed out, or the connection broke first.',
  WK_TABLE_QUERY_FAILED:
    'A table source could not run a query, or the query failed or was cancelled while its rows streamed.',
  WK_TABLE_TYPE_UNSUPPORTED: 'A query result has a column of a type the table source does not read.',
  WK_CACHE_VALUE_TOO_LARGE:
    "A value encodes to more bytes than the cache's maxValueBytes, so it is not stored.",
  WK_CACHE_STORE_UNAVAILABLE:
    "A cache's store failed, timed out or is behind an open circuit breaker; the cache answered without it.",
  WK_CACHE_CONNECT_FAILED:
    "A cache store could not connect: refused, or not connected within the store's connectTimeoutMs.",
  WK_REGISTRY_SCHEMA_INVALID:
    'A schema given to the schema registry does not parse as its type (Avro, Protobuf, wirekit), or names an unknown type.',
  WK_REGISTRY_INCOMPATIBLE:
    "A schema breaks the subject's compatibility level against the versions it is checked with.",
  WK_REGISTRY_NOT_FOUND: 'The schema registry has no such subject, version or schema id.',
  WK_REGISTRY_REQUEST: 'The schema registry refused a request as malformed (a bad version, level or body).',
  WK_REGISTRY_UNAVAILABLE:
    'The schema registry could not be reached, timed out, or failed with a server or store error.',
  WK_REGISTRY_AUTH:
    'The schema registry refused the credentials (401), or the role they carry does not allow the operation (403).',
  WK_REGISTRY_NOT_PERMITTED:
    'The schema registry refused a write its state forbids: READONLY mode, or no schema id or version left below 2^31.',
  WK_EVENT_FRAME_INVALID:
    'An event payload is not in the framing expected: no Confluent magic byte, too short, or bad message indexes.',
  WK_EVENT_BROKER_UNAVAILABLE:
    'The event broker (Kafka, NATS) could not be reached or did not acknowledge a publish in time.',
  WK_EVENT_STREAM_MISSING:
    'The NATS JetStream stream a producer or consumer names does not exist: create it, or pass ensureStream: true.',
  WK_WS_SLOW_CONSUMER:
    'A WebSocket peer reads more slowly than messages come: its queue was full, so a message was dropped or the connection closed (1008).',
  WK_WS_HANDLER_FAILED: "A WebSocket route's handler threw; the connection was closed with 1011.",
  WK_WS_CLOSED:
    'The WebSocket is closed, or could not reconnect within its attempts: the message was not sent, or no more will come.',
  WK_WS_PROTOCOL:
    'The server answered a WebSocket handshake with a subprotocol that is no wirekit format the client was given.',
  WK_RPC_STATUS:
    'An RPC call ended with a status other than OK that names no wirekit code (the gRPC status is on the error), or failed before any status came back.',
} as const;

export type ErrorCode = keyof typeof errorCodes;
