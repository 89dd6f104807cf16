/**
 * Services in a `.proto` file: the file's contents when `toProto` is given services (and named
 * types) rather than one schema, and the `service` blocks printed after the messages.
 *
 * The layout (proto-layout.ts) starts from one root schema. A file of services has many roots (each
 * method's request and reply, and any other types asked for), so they are gathered as the fields of
 * a root object that the layout lays out like any other and the printer leaves out: every type is
 * then declared once, however many methods name it, with the same names, nesting, imports and
 * refusals as a single schema's file.
 */
import { WirekitError } from '../../errors/index.js';
import { object, optional } from '../builders.js';
import { type HttpBinding, type HttpRule, httpVerbs } from '../http-rule.js';
import { isService, serviceName } from '../service.js';
import type { MethodSchema, ServiceSchema } from '../service-types.js';
import type { NamedSchema, ObjectSchema, Schema } from '../types.js';
import { deref } from '../walk.js';
import { unsupported } from './plan.js';
import type { ProtoLayout, ProtoMessage } from './proto-layout.js';

/** What `toProto` prints as one file: a schema, a service, or a list of named types and services. */
export type ProtoFileInput = Schema | ServiceSchema | readonly (Schema | ServiceSchema)[];

/** The name of the root that gathers a file's types; never printed. */
const gatherName = 'WirekitFileTypes_';

export interface GatheredFile {
  /** The object whose fields name every type the file declares, in the order given. */
  readonly root: ObjectSchema;
  readonly services: readonly ServiceSchema[];
}

/**
 * The services and types of `input` gathered under one root, or undefined for a single schema,
 * which is laid out as it always was.
 */
export function gatherFile(input: ProtoFileInput): GatheredFile | undefined {
  if (!Array.isArray(input) && !isService(input)) return undefined;
  const items: readonly (Schema | ServiceSchema)[] = Array.isArray(input) ? input : [input as ServiceSchema];
  const services: ServiceSchema[] = [];
  const types: NamedSchema[] = [];
  const add = (type: NamedSchema): void => {
    if (!types.includes(type)) types.push(type);
  };
  for (const item of items) {
    if (isService(item)) {
      services.push(item);
      for (const method of Object.values(item.methods) as MethodSchema[]) {
        add(method.input);
        add(method.output);
      }
      continue;
    }
    const node = deref(item as Schema);
    if (node.kind !== 'object' && node.kind !== 'enum' && node.kind !== 'union') {
      throw new WirekitError(
        'WK_SCHEMA_INVALID',
        `toProto: a list holds services and named types (objects, enums, unions), not a ${node.kind}.`,
      );
    }
    add(node);
  }
  if (types.length === 0) {
    throw new WirekitError('WK_SCHEMA_INVALID', 'toProto: the list declares nothing.');
  }
  const names = new Set<string>();
  for (const service of services) {
    if (names.has(serviceName(service))) {
      unsupported('Protocol Buffers', `two services are named ${serviceName(service)}.`);
    }
    names.add(serviceName(service));
  }
  // Optional fields, so that the root has no proto3 implicit-presence field to decide the syntax.
  const fields = Object.fromEntries(types.map((type, index) => [`t${index}`, optional(type)]));
  return { root: object(gatherName, fields), services };
}

/**
 * The layout without its gathering root, after checking that the services can live in the file:
 * each in the file's package (its full name is its identity on the wire), none named like a type.
 */
export function withoutGatherRoot(layout: ProtoLayout, services: readonly ServiceSchema[]): ProtoLayout {
  const declared = new Set(
    layout.declarations.filter((type) => !layout.enclosing.has(type)).map((type) => type.name),
  );
  for (const service of services) {
    if (service.namespace !== layout.package) {
      const where = (name: string | undefined) => (name === undefined ? 'no package' : `package ${name}`);
      unsupported(
        'Protocol Buffers',
        `service ${serviceName(service)} is in ${where(service.namespace)}, but the file's types are in ` +
          `${where(layout.package)}; one file holds one package, so give the service and its messages one namespace.`,
      );
    }
    if (declared.has(service.name)) {
      unsupported(
        'Protocol Buffers',
        `service ${serviceName(service)} has the name of a type of the file; rename one of them.`,
      );
    }
  }
  return { ...layout, declarations: layout.declarations.filter((type) => type !== layout.root) };
}

/** The message declared for each type of the gathering root, by the type's schema. */
export function messagesOf(layout: ProtoLayout): Map<Schema, ProtoMessage> {
  const messages = new Map<Schema, ProtoMessage>();
  for (const field of layout.root.fields) {
    if (field.value?.is === 'message') messages.set(field.inner, field.value.message);
  }
  return messages;
}

/**
 * The `service` blocks. `reference` gives how the file names a request or reply message (its name,
 * its full name from the root for a nested one, google.protobuf.Empty for a well-known one), or
 * with `absolute` its full name from the root (`.orders.v1.Ping`).
 */
export function printServices(
  services: readonly ServiceSchema[],
  reference: (message: ObjectSchema, absolute: boolean) => string,
  httpRules = true,
): string[] {
  return services.map((service) => {
    const lines = [...docLines(service.doc, ''), `service ${service.name} {`];
    if (service.deprecated === true) lines.push('  option deprecated = true;');
    const methodNames = new Set(Object.keys(service.methods));
    // protoc looks a type name up from the service's scope outwards, where the methods are: in
    // `rpc Ping(Ping)` the type would be the method. A name so hidden is written from the root.
    const typeName = (message: ObjectSchema): string => {
      const relative = reference(message, false);
      const first = relative.split('.')[0] as string;
      return methodNames.has(first) ? reference(message, true) : relative;
    };
    for (const [name, method] of Object.entries(service.methods) as [string, MethodSchema][]) {
      const streams = (side: boolean) => (side ? 'stream ' : '');
      const input = `${streams(method.methodKind === 'client_streaming' || method.methodKind === 'bidi_streaming')}${typeName(method.input)}`;
      const output = `${streams(method.methodKind === 'server_streaming' || method.methodKind === 'bidi_streaming')}${typeName(method.output)}`;
      const options = [
        ...(method.idempotency === undefined ? [] : [`option idempotency_level = ${method.idempotency};`]),
        ...(method.deprecated === true ? ['option deprecated = true;'] : []),
        ...(httpRules && method.http !== undefined ? httpOption(method.http) : []),
      ];
      const head = `  rpc ${name}(${input}) returns (${output})`;
      lines.push(...docLines(method.doc, '  '));
      if (options.length === 0) lines.push(`${head};`);
      else lines.push(`${head} {`, ...options.map((option) => `    ${option}`), '  }');
    }
    lines.push('}');
    return lines.join('\n');
  });
}

/** The file googleapis declares the `google.api.http` option in. */
export const httpAnnotationsFile = 'google/api/annotations.proto';

/** Whether any method of the services has a REST mapping to print. */
export function hasHttpRules(services: readonly ServiceSchema[]): boolean {
  return services.some((service) =>
    (Object.values(service.methods) as MethodSchema[]).some((method) => method.http !== undefined),
  );
}

/**
 * `option (google.api.http) = { ... };` in protobuf's text format, with HttpRule's field names
 * (`response_body`, `additional_bindings`), one field a line.
 */
function httpOption(rule: HttpRule): string[] {
  const fieldsOf = (binding: HttpBinding, indent: string): string[] => {
    const lines: string[] = [];
    for (const verb of httpVerbs) {
      const template = binding[verb];
      if (template !== undefined) lines.push(`${indent}${verb}: ${JSON.stringify(template)}`);
    }
    if (binding.body !== undefined) lines.push(`${indent}body: ${JSON.stringify(binding.body)}`);
    if (binding.responseBody !== undefined) {
      lines.push(`${indent}response_body: ${JSON.stringify(binding.responseBody)}`);
    }
    return lines;
  };
  const lines = ['option (google.api.http) = {', ...fieldsOf(rule, '  ')];
  for (const more of rule.additionalBindings ?? []) {
    lines.push('  additional_bindings {', ...fieldsOf(more, '    '), '  }');
  }
  lines.push('};');
  return lines;
}

function docLines(doc: string | undefined, indent: string): string[] {
  return doc === undefined ? [] : doc.split(/\r?\n/).map((line) => `${indent}// ${line}`.trimEnd());
}
