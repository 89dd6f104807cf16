/**
 * The services of an imported `.proto` file (or descriptor set): each rpc with its request and
 * response messages as the wirekit schemas the import made of them, so that an RPC layer can encode
 * and decode its calls with the same codec as any other message, and its streaming flags and
 * idempotency level, which decide how a call may be carried (a NO_SIDE_EFFECTS method may be a GET
 * in Connect's protocol; a client-streaming one cannot be a unary HTTP request).
 *
 * Only what the file itself declares: services of the files it imports are theirs to import.
 */

import { WirekitError } from '../../errors/index.js';
import { type HttpBinding, type HttpRule, httpVerbs, parseHttpRule } from '../../schema/http-rule.js';
import { t } from '../../schema/index.js';
import { protoError } from '../../schema/proto/errors.js';
import type { ProtoFileAst, ProtoMessageAst, ProtoOption } from '../../schema/proto/index.js';
import type { LinkedProto, ProtoDeclaration } from '../../schema/proto/link.js';
import { qualify } from '../../schema/proto/symbols.js';
import type { MethodSchema, ServiceSchema } from '../../schema/service-types.js';
import type { ObjectSchema } from '../../schema/types.js';

/** google.protobuf.MethodOptions.IdempotencyLevel, by its names. */
export type ProtoIdempotencyLevel = 'IDEMPOTENCY_UNKNOWN' | 'NO_SIDE_EFFECTS' | 'IDEMPOTENT';

export interface ImportedProtoMessageRef {
  /** The message's full name, without a leading dot (`shop.v1.Order`). */
  readonly name: string;
  readonly schema: ObjectSchema;
}

export interface ImportedProtoMethod {
  readonly name: string;
  readonly input: ImportedProtoMessageRef;
  readonly output: ImportedProtoMessageRef;
  /** `rpc M (stream In)`: the client sends a stream of requests. */
  readonly clientStreaming: boolean;
  /** `returns (stream Out)`: the server answers with a stream of responses. */
  readonly serverStreaming: boolean;
  /** `option idempotency_level = ...;`, IDEMPOTENCY_UNKNOWN when not set. */
  readonly idempotencyLevel: ProtoIdempotencyLevel;
  /** `option deprecated = true;` on the rpc. */
  readonly deprecated: boolean;
  /** `option (google.api.http) = { ... };`: how the method is reached over REST, if it says. */
  readonly http?: HttpRule;
}

export interface ImportedProtoService {
  /** The service's full name (`shop.v1.Orders`). */
  readonly name: string;
  readonly methods: readonly ImportedProtoMethod[];
  readonly deprecated: boolean;
  /** The service as `t.service` declares it, which toProto prints back and `--to ts` writes. */
  readonly schema: ServiceSchema;
}

/** How the import maps a message, given with the scope (package and enclosing messages) it is declared in. */
export type MessageSchemaOf = (message: ProtoMessageAst, scope: string, file: ProtoFileAst) => ObjectSchema;

export function protoServices(linked: LinkedProto, messageSchema: MessageSchemaOf): ImportedProtoService[] {
  const { file } = linked;
  const ref = (declaration: ProtoDeclaration): ImportedProtoMessageRef => {
    // link.ts resolved every rpc's types to messages, or refused the file.
    const { message, file: declaredIn } = declaration.symbol as Extract<
      ProtoDeclaration['symbol'],
      { kind: 'message' }
    >;
    const dot = declaration.fullName.lastIndexOf('.');
    const scope = dot < 0 ? '' : declaration.fullName.slice(0, dot);
    return { name: declaration.fullName, schema: messageSchema(message, scope, declaredIn) };
  };
  return file.services.map((service) => {
    const imported = {
      name: qualify(file.package, service.name),
      deprecated: flag(service.options, 'deprecated'),
      methods: service.methods.map((method) => {
        const types = linked.methods.get(method);
        if (types === undefined) throw new Error(`rpc ${method.name} was not linked`);
        const input = ref(types.input);
        const output = ref(types.output);
        return {
          name: method.name,
          input,
          output,
          clientStreaming: method.inputStream,
          serverStreaming: method.outputStream,
          idempotencyLevel: idempotencyOf(method.options, `rpc ${qualify(service.name, method.name)}`),
          deprecated: flag(method.options, 'deprecated'),
          ...(method.inputStream || method.outputStream
            ? {}
            : httpRuleOf(method.options, input.schema, output.schema)),
        };
      }),
    };
    return { ...imported, schema: serviceSchemaOf(imported) };
  });
}

const builders = {
  unary: t.unary,
  server_streaming: t.serverStream,
  client_streaming: t.clientStream,
  bidi_streaming: t.bidiStream,
} as const;

/** The service as t.service builds it: IDEMPOTENCY_UNKNOWN is the level a method declares by saying nothing. */
function serviceSchemaOf(service: Omit<ImportedProtoService, 'schema'>): ServiceSchema {
  const methods = service.methods.map((method): [string, MethodSchema] => {
    const kind = method.clientStreaming
      ? method.serverStreaming
        ? 'bidi_streaming'
        : 'client_streaming'
      : method.serverStreaming
        ? 'server_streaming'
        : 'unary';
    const level = method.idempotencyLevel;
    return [
      method.name,
      builders[kind](method.input.schema, method.output.schema, {
        ...(level === 'IDEMPOTENCY_UNKNOWN' ? {} : { idempotency: level }),
        ...(method.deprecated ? { deprecated: true } : {}),
        ...(method.http === undefined || kind !== 'unary' ? {} : { http: method.http }),
      }),
    ];
  });
  return t.service(service.name, Object.fromEntries(methods), service.deprecated ? { deprecated: true } : {});
}

function simpleOption(options: readonly ProtoOption[], name: string): ProtoOption | undefined {
  return options.find(
    (option) =>
      option.name.length === 1 && option.name[0]?.extension === false && option.name[0].name === name,
  );
}

function flag(options: readonly ProtoOption[], name: string): boolean {
  const value = simpleOption(options, name)?.value;
  return value?.kind === 'identifier' && value.value === 'true';
}

const idempotencyLevels: readonly ProtoIdempotencyLevel[] = [
  'IDEMPOTENCY_UNKNOWN',
  'NO_SIDE_EFFECTS',
  'IDEMPOTENT',
];

function idempotencyOf(options: readonly ProtoOption[], where: string): ProtoIdempotencyLevel {
  const option = simpleOption(options, 'idempotency_level');
  if (option === undefined) return 'IDEMPOTENCY_UNKNOWN';
  const { value } = option;
  const level = idempotencyLevels.find((name) => value.kind === 'identifier' && name === value.value);
  // protoc refuses any other value; the .proto reader leaves options uninterpreted, so it is refused here.
  if (level === undefined)
    protoError(`${where}: idempotency_level must be one of ${idempotencyLevels.join(', ')}`, option.at);
  return level;
}

type AggregateValue = Extract<ProtoOption['value'], { kind: 'aggregate' }>;

/** One HttpRule of the text format (its verbs, body, response_body), or undefined for one not read. */
function bindingOf(aggregate: AggregateValue): HttpBinding | undefined {
  const binding: Record<string, string> = {};
  for (const field of aggregate.fields) {
    if (field.name === 'additional_bindings') continue;
    const key = field.name === 'response_body' ? 'responseBody' : field.name;
    const known = (httpVerbs as readonly string[]).includes(key) || key === 'body' || key === 'responseBody';
    if (!known || field.value.kind !== 'string') return undefined;
    binding[key] = field.value.value;
  }
  return binding as HttpBinding;
}

/**
 * `option (google.api.http) = { get: "/v1/..." additional_bindings { ... } };` as the rule t.unary
 * takes. A rule wirekit cannot serve (a `custom` verb, a `selector`, a template its request does
 * not fit) is left out rather than failing the import: the file's messages and methods are what an
 * import is for, and protoc does not check HttpRules either.
 */
function httpRuleOf(
  options: readonly ProtoOption[],
  input: ObjectSchema,
  output: ObjectSchema,
): { http?: HttpRule } {
  const option = options.find(
    (candidate) =>
      candidate.name.length === 1 &&
      candidate.name[0]?.extension === true &&
      candidate.name[0].name.replace(/^\./, '') === 'google.api.http',
  );
  if (option === undefined || option.value.kind !== 'aggregate') return {};
  const first = bindingOf(option.value);
  const more = option.value.fields
    .filter((field) => field.name === 'additional_bindings')
    .flatMap((field) => (field.value.kind === 'list' ? field.value.items : [field.value]))
    .map((value) => (value.kind === 'aggregate' ? bindingOf(value) : undefined));
  if (first === undefined || more.some((binding) => binding === undefined)) return {};
  const rule: HttpRule = {
    ...first,
    ...(more.length === 0 ? {} : { additionalBindings: more as HttpBinding[] }),
  };
  try {
    parseHttpRule(rule, input, output);
  } catch (error) {
    if (error instanceof WirekitError && error.code === 'WK_SCHEMA_INVALID') return {};
    throw error;
  }
  return { http: rule };
}
