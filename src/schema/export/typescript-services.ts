/**
 * A service in a generated TypeScript module: `export const OrderService = t.service(…)`, each
 * method by its builder with the identifiers of its request and reply, declared above it by the
 * module, and only the options the method declares, so that the module rebuilds the same service.
 */
import { type HttpBinding, type HttpRule, httpVerbs } from '../http-rule.js';
import { serviceName } from '../service.js';
import type { MethodKind, MethodSchema, ServiceSchema } from '../service-types.js';
import type { ObjectSchema } from '../types.js';
import { call, type Expr, layout, propertyKey, quote } from './typescript-layout.js';

const builders: Readonly<Record<MethodKind, string>> = {
  unary: 't.unary',
  server_streaming: 't.serverStream',
  client_streaming: 't.clientStream',
  bidi_streaming: 't.bidiStream',
};

/** `id` is the identifier the service is declared as; `idOf` gives a message's. */
export function serviceDeclaration(
  service: ServiceSchema,
  id: string,
  idOf: (message: ObjectSchema) => string,
): string {
  const methods = Object.entries(service.methods).map(([name, method]): [string, Expr] => [
    propertyKey(name),
    methodExpr(method, idOf),
  ]);
  const options = someOptions([
    ['deprecated', service.deprecated === true ? 'true' : undefined],
    ['doc', service.doc === undefined ? undefined : quote(service.doc)],
  ]);
  const value = call(
    't.service',
    quote(serviceName(service)),
    methods.length === 0 ? '{}' : { entries: methods, expanded: true },
    ...options,
  );
  const head = `export const ${id} = `;
  return `${head}${layout(value, 0, head.length, 1)};`;
}

function methodExpr(method: MethodSchema, idOf: (message: ObjectSchema) => string): Expr {
  return call(
    builders[method.methodKind],
    idOf(method.input),
    idOf(method.output),
    ...someOptions([
      ['idempotency', method.idempotency === undefined ? undefined : quote(method.idempotency)],
      ['deprecated', method.deprecated === true ? 'true' : undefined],
      ['doc', method.doc === undefined ? undefined : quote(method.doc)],
      ['http', method.http === undefined ? undefined : httpLiteral(method.http)],
    ]),
  );
}

/** A REST mapping as the object literal t.unary takes: `{ get: '/v1/x/{id}', body: '*' }`. */
function httpLiteral(rule: HttpRule): string {
  const entries = (binding: HttpBinding): string[] => [
    ...httpVerbs.flatMap((verb) => (binding[verb] === undefined ? [] : [`${verb}: ${quote(binding[verb])}`])),
    ...(binding.body === undefined ? [] : [`body: ${quote(binding.body)}`]),
    ...(binding.responseBody === undefined ? [] : [`responseBody: ${quote(binding.responseBody)}`]),
  ];
  const more = rule.additionalBindings ?? [];
  const all = [
    ...entries(rule),
    ...(more.length === 0
      ? []
      : [`additionalBindings: [${more.map((b) => `{ ${entries(b).join(', ')} }`).join(', ')}]`]),
  ];
  return `{ ${all.join(', ')} }`;
}

/** An options argument of the entries that are set, or none. */
function someOptions(pairs: readonly [string, string | undefined][]): Expr[] {
  const entries = pairs.filter((pair): pair is [string, string] => pair[1] !== undefined);
  return entries.length === 0 ? [] : [{ entries }];
}
