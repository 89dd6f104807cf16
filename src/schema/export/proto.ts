/**
 * The proto3 `.proto` file of a schema: the printer of its layout (proto-layout.ts, where the mapping
 * is decided). docs/mapping/protobuf.md is the contract (every type, every refusal, every collapse).
 */
import { groupOfField } from '../oneofs.js';
import type { OneofGroup, Schema, UnionSchema } from '../types.js';
import { notes, representationNote, valueText } from './comments.js';

import {
  isPackable,
  type ProtoEnum,
  type ProtoField,
  type ProtoLayout,
  type ProtoMessage,
  type ProtoOptions,
  type ProtoValue,
  protoLayout,
} from './proto-layout.js';
import {
  gatherFile,
  hasHttpRules,
  httpAnnotationsFile,
  messagesOf,
  type ProtoFileInput,
  printServices,
  withoutGatherRoot,
} from './proto-services.js';
import { defaultLiteral, printableDefault } from './proto-syntax.js';

export type { ProtoFileInput, ProtoOptions };

/** google/api/annotations.proto is googleapis', not protoc's: where to find it. */
const httpImportNote = [
  '// google/api/annotations.proto (the REST mappings of the methods) comes from googleapis',
  '// (github.com/googleapis/googleapis, or the googleapis-common-protos package): pass -I DIR, DIR',
  '// being the folder that holds google/api/annotations.proto.',
].join('\n');

/**
 * The google/protobuf/*.proto files are not in the user's folder: protoc finds them among its own
 * include files, which some installs leave out (Debian's protobuf-compiler only recommends
 * libprotobuf-dev, the package that holds them). The file says so itself, where the "File not
 * found" will point.
 */
const wellKnownImportNote = [
  "// google/protobuf/*.proto (imported below) are protobuf's well-known types, shipped with protoc",
  '// rather than with this file. protoc looks for them in the include/ folder beside its',
  '// bin/ folder: on Debian or Ubuntu install libprotobuf-dev (protobuf-compiler only recommends',
  '// it); from a protoc release archive keep include/ next to bin/. Elsewhere pass -I DIR, DIR being',
  '// the folder that holds google/protobuf/timestamp.proto.',
].join('\n');

/**
 * The `.proto` file of a schema; or of services (`t.service`) and named types, given alone or in a
 * list: every message their methods take and give and every type listed, each declared once, then
 * the `service` blocks (proto-services.ts).
 */
export function toProto(input: ProtoFileInput, options: ProtoOptions = {}): string {
  const gathered = gatherFile(input);
  if (gathered === undefined) return printProto(protoLayout(input as Schema, options));
  let layout = protoLayout(gathered.root, options);
  // Types of no package take the services' package, as they would a --namespace.
  const [first] = gathered.services;
  if (layout.package === undefined && options.package === undefined && first?.namespace !== undefined) {
    layout = protoLayout(gathered.root, { ...options, package: first.namespace });
  }
  const messages = messagesOf(layout);
  const services = printServices(
    gathered.services,
    (message, absolute) => {
      const declared = messages.get(message) as ProtoMessage;
      const relative = referenceTo(declared, layout);
      if (!absolute || relative.startsWith('.')) return relative;
      // A well-known type's name is its full name; the file's own top-level ones are in its package.
      const local = layout.declarations.includes(declared) && layout.package !== undefined;
      return local ? `.${layout.package}.${relative}` : `.${relative}`;
    },
    options.httpRules !== false,
  );
  const annotations =
    options.httpRules !== false && hasHttpRules(gathered.services) ? [httpAnnotationsFile] : [];
  return printProto(withoutGatherRoot(layout, gathered.services), services, annotations);
}

/** The `.proto` text of a layout, with the service blocks after its declarations. */
function printProto(
  layout: ProtoLayout,
  services: readonly string[] = [],
  serviceImports: readonly string[] = [],
): string {
  // A nested declaration is printed inside its enclosing message's block, indented.
  const inner = new Map<ProtoMessage, string[]>();
  const print = (declaration: ProtoLayout['declarations'][number]): string =>
    'values' in declaration
      ? enumeration(declaration)
      : declaration.origin === 'union'
        ? union(declaration)
        : declaration.origin === 'either'
          ? either(declaration, layout)
          : message(declaration, layout, inner.get(declaration) ?? []);
  const blocks: string[] = [];
  // Inner declarations first, so that each message finds its nested blocks printed.
  for (const declaration of [...layout.declarations].sort(
    (a, b) => depthOf(b, layout) - depthOf(a, layout),
  )) {
    const outer = layout.enclosing.get(declaration);
    if (outer === undefined) continue;
    const list = inner.get(outer) ?? [];
    list.push(print(declaration).replace(/^(?=.)/gm, '  '));
    inner.set(outer, list);
  }
  for (const declaration of layout.declarations) {
    if (!layout.enclosing.has(declaration)) blocks.push(print(declaration));
  }
  const imports = [
    ...new Set([
      ...(layout.timestamp !== undefined ? ['google/protobuf/timestamp.proto'] : []),
      ...(layout.wrappers ? ['google/protobuf/wrappers.proto'] : []),
      ...(layout.struct ? ['google/protobuf/struct.proto'] : []),
      ...layout.imports,
      ...serviceImports,
    ]),
  ].sort();
  const head = [
    "// Generated by wirekit. The mapping is described in wirekit's docs/mapping/protobuf.md.",
    ...(imports.some((file) => file.startsWith('google/protobuf/')) ? [wellKnownImportNote] : []),
    ...(serviceImports.length > 0 ? [httpImportNote] : []),
    `syntax = "${layout.syntax}";`,
  ];
  if (layout.package !== undefined) head.push(`package ${layout.package};`);
  if (imports.length > 0) head.push(imports.map((file) => `import "${file}";`).join('\n'));
  return `${[...head, ...blocks, ...services].join('\n\n')}\n`;
}

/** How many messages a declaration is nested in. */
function depthOf(declaration: ProtoLayout['declarations'][number], layout: ProtoLayout): number {
  let depth = 0;
  for (
    let outer = layout.enclosing.get(declaration);
    outer !== undefined;
    outer = layout.enclosing.get(outer)
  ) {
    depth++;
  }
  return depth;
}

/**
 * How a field refers to a declared message or enum: its name, or for a nested one its full name
 * from the root (`.shop.v1.Order.Line`), which protoc resolves the same from any scope.
 */
function referenceTo(declaration: ProtoLayout['declarations'][number], layout: ProtoLayout): string {
  if (!layout.enclosing.has(declaration)) return declaration.name;
  const names = [declaration.name];
  for (
    let outer = layout.enclosing.get(declaration);
    outer !== undefined;
    outer = layout.enclosing.get(outer)
  ) {
    names.unshift(outer.name);
  }
  return `.${layout.package === undefined ? '' : `${layout.package}.`}${names.join('.')}`;
}

function message(declared: ProtoMessage, layout: ProtoLayout, nested: readonly string[]): string {
  const head = declared.schema?.kind === 'object' ? notes('//', '', declared.schema) : [];
  const body: string[] = [...nested];
  const groups = declared.schema?.kind === 'object' ? groupOfField(declared.schema) : new Map();
  const byName = new Map(declared.fields.map((field) => [field.def.name, field]));
  const printed = new Set<OneofGroup>();
  for (const field of declared.fields) {
    const { def } = field;
    if (def.schema.kind === 'literal') {
      body.push(
        `  // ${def.name} (${def.id}) is always ${valueText(def.schema.value)}: a literal is not stored.`,
      );
      continue;
    }
    const group: OneofGroup | undefined = groups.get(def.name);
    if (group === undefined) {
      body.push(...fieldLines(field, layout, false));
    } else if (!printed.has(group)) {
      // A oneof block stands where its first member is, its members in the group's order: a
      // .proto file's members are contiguous, so the imported file's field order comes back.
      printed.add(group);
      const members = group.fields.map((name) => byName.get(name) as ProtoField);
      body.push(
        `  oneof ${group.name} {`,
        ...members.flatMap((member) => fieldLines(member, layout, true)),
        '  }',
      );
    }
  }
  const reserved = declared.schema?.kind === 'object' ? (declared.schema.reserved ?? []) : [];
  if (reserved.length > 0) body.push(`  reserved ${[...reserved].sort((a, b) => a - b).join(', ')};`);
  return [...head, `message ${declared.name} {`, ...body, '}'].join('\n');
}

/** A field's doc lines and its declaration; a oneof member sits deeper and has no `optional` label. */
function fieldLines(field: ProtoField, layout: ProtoLayout, member: boolean): string[] {
  const indent = member ? '    ' : '  ';
  const { def } = field;
  // proto3 packs repeated scalars unless told not to, proto2 packs them when told to.
  const packable = field.label === 'repeated' && isPackable(field.value as ProtoValue);
  const proto2 = layout.syntax === 'proto2';
  const packing = packable && field.packed === proto2 ? [`packed = ${field.packed}`] : [];
  const byDefault =
    proto2 && def.default !== undefined && printableDefault(field)
      ? [`default = ${defaultLiteral(field)}`]
      : [];
  const listed = [...packing, ...byDefault, ...(def.deprecated ? ['deprecated = true'] : [])];
  const options = listed.length > 0 ? ` [${listed.join(', ')}]` : '';
  // A json value declared as Value, Struct or ListValue is that message here, not JSON text.
  const note = field.value?.is === 'json' ? undefined : representationNote(def.schema, false);
  const declared = declaration(field, layout, member);
  // A default the file declares needs no comment.
  const noted = byDefault.length > 0 ? { ...def, default: undefined } : def;
  return [...notes('//', indent, noted), `${indent}${declared}${options};${note ? ` // ${note}` : ''}`];
}

/** A field declaration without its `;`. */
function declaration(field: ProtoField, layout: ProtoLayout, member: boolean): string {
  const { name, id } = field.def;
  const value = typeName(field.value as ProtoValue, layout);
  switch (field.label) {
    case 'repeated':
      return `repeated ${value} ${name} = ${id}`;
    case 'map':
      return `map<${typeName(field.key as ProtoValue, layout)}, ${value}> ${name} = ${id}`;
    default: {
      // proto2 labels every field; proto3 only those with presence (a required one is written
      // `optional`, the same bytes).
      const label =
        member || field.label !== 'optional'
          ? ''
          : field.def.presence === 'explicit' && layout.syntax === 'proto2'
            ? 'required '
            : 'optional ';
      return `${label}${value} ${name} = ${id}`;
    }
  }
}

function typeName(value: ProtoValue, layout: ProtoLayout): string {
  switch (value.is) {
    case 'scalar':
      return value.type;
    case 'timestamp':
      return layout.timestamp as string;
    case 'json':
      return value.name;
    case 'enum':
      return referenceTo(value.enum, layout);
    case 'message':
      return referenceTo(value.message, layout);
  }
}

function enumeration(type: ProtoEnum): string {
  return [
    ...notes('//', '', type.schema),
    `enum ${type.name} {`,
    ...type.values.map((value, index) => `  ${value} = ${type.schema.numbers?.[index] ?? index};`),
    '}',
  ].join('\n');
}

function union(type: ProtoMessage): string {
  return [
    ...notes('//', '', type.schema as UnionSchema),
    `message ${type.name} {`,
    '  oneof value {',
    ...type.variants.map((variant) => `    ${variant.message.name} ${variant.name} = ${variant.number};`),
    '  }',
    '}',
  ].join('\n');
}

/** An either's message: one oneof, its branches numbered from 1 in the either's order. */
function either(type: ProtoMessage, layout: ProtoLayout): string {
  return [
    '// A t.either: exactly one branch is set (the value itself, by its class).',
    `message ${type.name} {`,
    '  oneof value {',
    ...type.branches.map((branch) => {
      const node = branch.value.is === 'scalar' ? branch.value.schema : undefined;
      const note = node?.kind === 'literal' ? ` // always ${valueText(node.value)}` : '';
      return `    ${typeName(branch.value, layout)} ${branch.name} = ${branch.number};${note}`;
    }),
    '  }',
    '}',
  ].join('\n');
}
