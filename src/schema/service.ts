/**
 * The service builders, part of `t`:
 *
 *   const OrderService = t.service('orders.v1.OrderService', {
 *     GetOrder: t.unary(GetOrderRequest, Order, { idempotency: 'NO_SIDE_EFFECTS' }),
 *     WatchOrders: t.serverStream(WatchRequest, OrderEvent),
 *   });
 *
 * Requests and replies are `t.object`s: a call carries one message each way, as Protocol Buffers
 * declares it (`rpc M (Request) returns (Reply)`), so another kind of value is refused here rather
 * than wrapped in a message whose name and field no peer would know; wrap it in an object yourself.
 */
import { describeValue, WirekitError } from '../errors/index.js';
import { type HttpRule, parseHttpRule } from './http-rule.js';
import { isIdentifier } from './names.js';
import type { Idempotency, MethodKind, MethodSchema, ServiceSchema } from './service-types.js';
import type { ObjectSchema } from './types.js';

function invalid(message: string): never {
  throw new WirekitError('WK_SCHEMA_INVALID', message);
}

export interface MethodOptions {
  /** See Idempotency: `NO_SIDE_EFFECTS` (a GET in Connect, retried) or `IDEMPOTENT` (retried). */
  readonly idempotency?: Idempotency;
  /** `option deprecated = true;` in the `.proto`. */
  readonly deprecated?: boolean;
  readonly doc?: string;
}

/** A unary method's options: MethodOptions and how it is reached over REST. */
export interface UnaryMethodOptions extends MethodOptions {
  /**
   * The method's REST mapping, as `google.api.http` declares it (http-rule.ts): `{ get:
   * '/v1/orders/{id}' }`, `{ post: '/v1/orders', body: '*' }`. Checked against the request and reply
   * here; `toProto` writes it as `option (google.api.http)`, and `rpcGateway` serves it.
   */
  readonly http?: HttpRule;
}

const idempotencies: readonly Idempotency[] = ['NO_SIDE_EFFECTS', 'IDEMPOTENT'];

function method<I extends ObjectSchema, O extends ObjectSchema, K extends MethodKind>(
  methodKind: K,
  input: I,
  output: O,
  options: UnaryMethodOptions,
): MethodSchema<I, O, K> {
  checkMessage(`${methodKind} method: the request`, input);
  checkMessage(`${methodKind} method: the reply`, output);
  const { idempotency, deprecated, doc, http } = options;
  if (idempotency !== undefined && !idempotencies.includes(idempotency)) {
    invalid(`idempotency must be one of ${idempotencies.join(', ')}, got ${describeValue(idempotency)}.`);
  }
  if (deprecated !== undefined && typeof deprecated !== 'boolean') {
    invalid(`deprecated must be a boolean, got ${describeValue(deprecated)}.`);
  }
  if (doc !== undefined && typeof doc !== 'string')
    invalid(`doc must be a string, got ${describeValue(doc)}.`);
  if (http !== undefined) {
    // A stream has no one JSON body to answer with; gRPC-gateway's newline-delimited form is not done.
    if (methodKind !== 'unary')
      invalid(`http: only a unary method can be mapped to a REST route, not a ${methodKind} one.`);
    parseHttpRule(http, input, output);
  }
  return Object.freeze({
    kind: 'method' as const,
    methodKind,
    input,
    output,
    ...(idempotency === undefined ? {} : { idempotency }),
    ...(deprecated === true ? { deprecated: true as const } : {}),
    ...(doc === undefined ? {} : { doc }),
    ...(http === undefined ? {} : { http: frozenRule(http) }),
  });
}

/** A copy of the rule that the caller's object can no longer change. */
function frozenRule(rule: HttpRule): HttpRule {
  const { additionalBindings, ...binding } = rule;
  return Object.freeze({
    ...binding,
    ...(additionalBindings === undefined
      ? {}
      : { additionalBindings: Object.freeze(additionalBindings.map((more) => Object.freeze({ ...more }))) }),
  });
}

/** A request or reply must be an object schema: a message on every RPC protocol. */
function checkMessage(what: string, schema: unknown): void {
  const kind = (schema as { kind?: unknown } | null)?.kind;
  if (kind === 'object') return;
  const got = typeof kind === 'string' ? `a ${kind}` : describeValue(schema);
  invalid(
    `${what} must be a t.object (a message), got ${got}; ` +
      "wrap another value in an object, as t.object('Reply', { value: … }).",
  );
}

/** One request, one reply. */
export const unary = <I extends ObjectSchema, O extends ObjectSchema>(
  request: I,
  reply: O,
  options: UnaryMethodOptions = {},
): MethodSchema<I, O, 'unary'> => method('unary', request, reply, options);

/** One request, a stream of replies. */
export const serverStream = <I extends ObjectSchema, O extends ObjectSchema>(
  request: I,
  reply: O,
  options: MethodOptions = {},
): MethodSchema<I, O, 'server_streaming'> => method('server_streaming', request, reply, options);

/** A stream of requests, one reply. */
export const clientStream = <I extends ObjectSchema, O extends ObjectSchema>(
  request: I,
  reply: O,
  options: MethodOptions = {},
): MethodSchema<I, O, 'client_streaming'> => method('client_streaming', request, reply, options);

/** A stream of requests and a stream of replies, each side sending when it will. */
export const bidiStream = <I extends ObjectSchema, O extends ObjectSchema>(
  request: I,
  reply: O,
  options: MethodOptions = {},
): MethodSchema<I, O, 'bidi_streaming'> => method('bidi_streaming', request, reply, options);

export interface ServiceOptions {
  /** `option deprecated = true;` on the service. */
  readonly deprecated?: boolean;
  readonly doc?: string;
}

/**
 * A service by its full name (`orders.v1.OrderService`: package parts and the name, each an
 * identifier) and its methods by name (identifiers, each its name on the wire and in the `.proto`).
 */
export function service<const M extends Readonly<Record<string, MethodSchema>>>(
  fullName: string,
  methods: M,
  options: ServiceOptions = {},
): ServiceSchema<M> {
  if (typeof fullName !== 'string' || !fullName.split('.').every(isIdentifier)) {
    invalid(
      `service ${describeValue(fullName)}: the name must be identifiers joined by dots ` +
        "(package parts, then the service's name: 'orders.v1.OrderService').",
    );
  }
  const parts = fullName.split('.');
  const name = parts.pop() as string;
  if (typeof methods !== 'object' || methods === null || Array.isArray(methods)) {
    invalid(`service ${fullName}: methods must be an object of t.unary, t.serverStream… by name.`);
  }
  // No method is allowed, as protoc allows `service S {}`: a service being sketched.
  const entries = Object.entries(methods);
  for (const [methodName, value] of entries) {
    // `__proto__` is an identifier, but an object literal's `__proto__:` sets the prototype.
    if (!isIdentifier(methodName) || methodName === '__proto__') {
      invalid(
        `service ${fullName}: method name ${JSON.stringify(methodName)} must start with a letter or '_' ` +
          "and hold only letters, digits and '_' (and not be __proto__).",
      );
    }
    if ((value as { kind?: unknown } | null)?.kind !== 'method') {
      invalid(
        `service ${fullName}: method ${methodName} must be built with t.unary, t.serverStream, ` +
          `t.clientStream or t.bidiStream, got ${describeValue(value)}.`,
      );
    }
  }
  const { deprecated, doc } = options;
  if (deprecated !== undefined && typeof deprecated !== 'boolean') {
    invalid(`service ${fullName}: deprecated must be a boolean, got ${describeValue(deprecated)}.`);
  }
  return Object.freeze({
    kind: 'service' as const,
    name,
    ...(parts.length === 0 ? {} : { namespace: parts.join('.') }),
    methods: Object.freeze(Object.fromEntries(entries)) as M,
    ...(deprecated === true ? { deprecated: true as const } : {}),
    ...(doc === undefined ? {} : { doc }),
  });
}

/** Whether a value is a service built with t.service (a module's exports are told apart by it). */
export function isService(value: unknown): value is ServiceSchema {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'service' &&
    typeof (value as { methods?: unknown }).methods === 'object'
  );
}

/** A service's full name: `orders.v1.OrderService`. */
export function serviceName(schema: ServiceSchema): string {
  return schema.namespace === undefined ? schema.name : `${schema.namespace}.${schema.name}`;
}
