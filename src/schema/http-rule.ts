/**
 * How a method is reached over REST, in the spirit of `google.api.http` (google/api/http.proto):
 * a verb and a path template whose variables name fields of the request, the field the body fills
 * (`*` for every field the path does not bind), and optionally the field of the reply that is the
 * response body. The fields bound by neither come from the query string.
 *
 *   t.unary(GetOrder, Order, { http: { get: '/v1/orders/{id}' } })
 *   t.unary(UpdateOrder, Order, { http: { patch: '/v1/orders/{order.id}', body: 'order' } })
 *
 * Templates follow HttpRule's grammar:
 *
 *   Template = "/" Segments [ ":" Verb ] ;  Segments = Segment { "/" Segment } ;
 *   Segment  = "*" | "**" | LITERAL | Variable ;  Variable = "{" FieldPath [ "=" Segments ] "}" ;
 *
 * `{id}` is `{id=*}` (one segment); `**` (zero or more segments) may only come last. The rule is
 * parsed and checked against the request's schema when the method is built, so a template that does
 * not parse, a variable naming no field (or a repeated or message field), and a body naming no
 * message field are WK_SCHEMA_INVALID there, not a 404 at the first request.
 */
import { WirekitError } from '../errors/index.js';
import type { FieldDef, ObjectSchema, Schema } from './types.js';
import { deref } from './walk.js';

/** The verbs HttpRule names (its `custom` verbs are left out). */
export const httpVerbs = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpVerb = (typeof httpVerbs)[number];

/** One binding: exactly one verb with its template, and where the body and the response come from. */
export interface HttpBinding {
  readonly get?: string;
  readonly put?: string;
  readonly post?: string;
  readonly delete?: string;
  readonly patch?: string;
  /** `*` (every field the path does not bind), a top-level message field's name, or absent: no body. */
  readonly body?: string;
  /** A top-level field of the reply to answer with instead of the whole reply. */
  readonly responseBody?: string;
}

/** A method's REST mapping: one binding, and more paths to the same method (HttpRule's additional_bindings). */
export interface HttpRule extends HttpBinding {
  readonly additionalBindings?: readonly HttpBinding[];
}

/** One segment of a template: a literal, `*` (one segment) or `**` (the rest, maybe none). */
export type TemplateSegment =
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'one' }
  | { readonly kind: 'rest' };

/** A variable: the request field it fills and the segments it spans (`[start, end)`). */
export interface TemplateVariable {
  /** The field path, by the schema's field names: `order.id` is ['order', 'id']. */
  readonly field: readonly string[];
  readonly start: number;
  readonly end: number;
}

export interface PathTemplate {
  readonly text: string;
  readonly segments: readonly TemplateSegment[];
  readonly variables: readonly TemplateVariable[];
  /** The custom verb after the last segment (`:cancel`), without its colon. */
  readonly verb: string | undefined;
}

/** A binding as parsed and checked: what a gateway routes by. */
export interface ParsedBinding {
  readonly verb: HttpVerb;
  readonly template: PathTemplate;
  readonly body: string | undefined;
  readonly responseBody: string | undefined;
}

function invalid(message: string): never {
  throw new WirekitError('WK_SCHEMA_INVALID', message);
}

// A literal segment holds URL-safe characters: unreserved ones, sub-delimiters, ':' and '@' (RFC 3986's
// pchar, without percent-encodings); braces, '/', '*' and '=' are the template's own syntax.
const literalPattern = /^[A-Za-z0-9\-._~!$&'()+,;:@]+$/;
const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses a path template (see the grammar above); WK_SCHEMA_INVALID saying where it went wrong. @internal exported for its tests. */
export function parsePathTemplate(text: string): PathTemplate {
  const fail = (why: string): never => invalid(`path template ${JSON.stringify(text)}: ${why}`);
  if (typeof text !== 'string' || !text.startsWith('/')) fail('it must start with "/".');
  // The verb is the text after the last ':' outside braces, in the last segment.
  let body = text.slice(1);
  let verb: string | undefined;
  const lastSlash = body.lastIndexOf('/');
  const colon = body.lastIndexOf(':');
  if (colon > lastSlash && colon > body.lastIndexOf('}')) {
    verb = body.slice(colon + 1);
    body = body.slice(0, colon);
    if (!literalPattern.test(verb) || verb.includes(':'))
      fail(`the verb ${JSON.stringify(verb)} is not a literal.`);
  }
  const segments: TemplateSegment[] = [];
  const variables: TemplateVariable[] = [];
  let at = 0;
  const readSegments = (inVariable: boolean): void => {
    for (;;) {
      if (body[at] === '{') {
        if (inVariable) fail('a variable cannot hold another variable.');
        readVariable();
      } else {
        let end = at;
        while (end < body.length && body[end] !== '/' && body[end] !== '}') end++;
        const segment = body.slice(at, end);
        at = end;
        if (segment === '*') segments.push({ kind: 'one' });
        else if (segment === '**') segments.push({ kind: 'rest' });
        else if (segment === '') fail('it has an empty segment.');
        else if (!literalPattern.test(segment))
          fail(`the segment ${JSON.stringify(segment)} is not a literal.`);
        else segments.push({ kind: 'literal', value: segment });
      }
      if (body[at] !== '/') return;
      at++;
    }
  };
  const readVariable = (): void => {
    at++; // '{'
    let end = at;
    while (end < body.length && body[end] !== '=' && body[end] !== '}') end++;
    const path = body.slice(at, end);
    const field = path.split('.');
    if (!field.every((part) => identifierPattern.test(part))) {
      fail(`the variable {${path}} must name a field path (identifiers joined by dots).`);
    }
    at = end;
    const start = segments.length;
    if (body[at] === '=') {
      at++;
      readSegments(true);
    } else {
      segments.push({ kind: 'one' });
    }
    if (body[at] !== '}') fail(`the variable {${path}} is not closed.`);
    at++;
    variables.push({ field, start, end: segments.length });
  };
  readSegments(false);
  if (at !== body.length) fail(`unexpected ${JSON.stringify(body.slice(at))}.`);
  const rest = segments.findIndex((segment) => segment.kind === 'rest');
  if (rest !== -1 && rest !== segments.length - 1) fail('"**" may only be the last segment.');
  const seen = new Set<string>();
  for (const variable of variables) {
    const name = variable.field.join('.');
    if (seen.has(name)) fail(`the field ${name} is bound twice.`);
    seen.add(name);
  }
  return { text, segments, variables, verb };
}

/** A field's schema without the wrappers that only say it may be absent. */
export function presentSchema(schema: Schema): Schema {
  let node = deref(schema);
  while (node.kind === 'optional' || node.kind === 'nullable') node = deref(node.inner);
  return node;
}

/** The field of `message` called `name`, by its schema name (the `.proto` field name). */
export function fieldNamed(message: ObjectSchema, name: string): FieldDef | undefined {
  return message.fields.find((field) => field.name === name);
}

/** Checks that a variable's field path names a singular, non-message field of the request. */
function checkVariable(request: ObjectSchema, variable: TemplateVariable, where: string): void {
  let message = request;
  variable.field.forEach((name, index) => {
    const field = fieldNamed(message, name);
    const path = variable.field.slice(0, index + 1).join('.');
    if (field === undefined)
      invalid(`${where}: the path variable {${path}} names no field of ${message.name}.`);
    const schema = presentSchema(field.schema);
    const last = index === variable.field.length - 1;
    if (!last) {
      if (schema.kind !== 'object')
        invalid(`${where}: {${variable.field.join('.')}}: ${path} is no message.`);
      message = schema;
    } else if (schema.kind === 'object' || schema.kind === 'array' || schema.kind === 'map') {
      invalid(
        `${where}: the path variable {${path}} names a ${schema.kind === 'object' ? 'message' : `${schema.kind === 'array' ? 'repeated' : 'map'}`} field; ` +
          'a path segment holds one scalar value.',
      );
    }
  });
}

/** The verb and template of a binding, refusing none or several. */
function verbOf(binding: HttpBinding, where: string): [HttpVerb, string] {
  const given = httpVerbs.filter((verb) => binding[verb] !== undefined);
  if (given.length !== 1) {
    invalid(
      `${where}: give exactly one of ${httpVerbs.join(', ')} with a path template, got ${given.length === 0 ? 'none' : given.join(' and ')}.`,
    );
  }
  const verb = given[0] as HttpVerb;
  return [verb, binding[verb] as string];
}

/** Parses and checks one binding against the method's request and reply. */
function parseBinding(
  binding: HttpBinding,
  request: ObjectSchema,
  reply: ObjectSchema,
  where: string,
): ParsedBinding {
  if (typeof binding !== 'object' || binding === null) invalid(`${where}: a binding must be an object.`);
  const known = new Set<string>([...httpVerbs, 'body', 'responseBody', 'additionalBindings']);
  for (const key of Object.keys(binding))
    if (!known.has(key)) invalid(`${where}: unknown key ${JSON.stringify(key)}.`);
  const [verb, text] = verbOf(binding, where);
  const template = parsePathTemplate(text);
  const at = `${where} ${verb.toUpperCase()} ${text}`;
  for (const variable of template.variables) checkVariable(request, variable, at);
  const { body, responseBody } = binding;
  if (body !== undefined) {
    if (verb === 'get')
      invalid(`${at}: a GET has no body; leave body out (unbound fields come from the query).`);
    if (body !== '*') {
      const field = typeof body === 'string' ? fieldNamed(request, body) : undefined;
      if (field === undefined)
        invalid(`${at}: the body ${JSON.stringify(body)} names no field of ${request.name}.`);
      if (presentSchema(field.schema).kind !== 'object') {
        invalid(`${at}: the body field ${body} is no message; the body must be "*" or a message field.`);
      }
    }
  }
  if (responseBody !== undefined) {
    if (typeof responseBody !== 'string' || fieldNamed(reply, responseBody) === undefined) {
      invalid(`${at}: the responseBody ${JSON.stringify(responseBody)} names no field of ${reply.name}.`);
    }
  }
  return { verb, template, body, responseBody };
}

/**
 * Every binding of a rule, parsed and checked against the method's request and reply (the first
 * binding, then its additional ones); WK_SCHEMA_INVALID with the reason for any that is wrong.
 */
export function parseHttpRule(rule: HttpRule, request: ObjectSchema, reply: ObjectSchema): ParsedBinding[] {
  if (typeof rule !== 'object' || rule === null)
    invalid('http must be an object such as { get: "/v1/things/{id}" }.');
  const first = parseBinding(rule, request, reply, 'http');
  const more = rule.additionalBindings ?? [];
  if (!Array.isArray(more)) invalid('http.additionalBindings must be an array of bindings.');
  const others = more.map((binding, index) => {
    if ((binding as HttpRule).additionalBindings !== undefined) {
      invalid(`http.additionalBindings[${index}]: an additional binding cannot have bindings of its own.`);
    }
    return parseBinding(binding, request, reply, `http.additionalBindings[${index}]`);
  });
  return [first, ...others];
}
