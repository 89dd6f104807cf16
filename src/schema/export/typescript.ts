/**
 * A schema as a TypeScript module of `t.*` builder calls: what `wirekit schema import --to ts`
 * writes, for a team to check in, import, and review schema changes in as diffs.
 *
 * - Each named type (object, enum, union) becomes `export const X = t.object(…)` with
 *   `export type X = Infer<typeof X>`, its doc as a JSDoc comment too; an unnamed root becomes
 *   `Root` (or `rootName`).
 * - Order is stable: a type after the types it uses, and otherwise by name, so that the same
 *   schema gives the same bytes and a change moves only its own lines.
 * - Recursive types (a cycle of named types) come out in the form strict TypeScript accepts: the
 *   value type (and the input type, where defaults make it differ) declared as interfaces, and the
 *   schema annotated with them (`ObjectSchema<Category, CategoryInput>`), with `t.lazy` for the
 *   references inside the cycle. TypeScript then checks that the schema's values fit the interfaces.
 * - Everything the schema's JSON form holds is written (field numbers where they differ from the
 *   ones `t.object` would assign, defaults, docs, aliases, deprecation, constraints), so importing
 *   the module gives a schema whose JSON form equals the original's.
 */
import { WirekitError } from '../../errors/index.js';
import { assignFieldNumbers } from '../field-numbers.js';
import { isSmallInt } from '../int-ranges.js';
import { isService, serviceName } from '../service.js';
import type { MethodSchema, ServiceSchema } from '../service-types.js';
import type {
  AvroDecimalForm,
  AvroFixedForm,
  EnumSchema,
  FieldDef,
  NamedSchema,
  ObjectSchema,
  Schema,
  UnionSchema,
} from '../types.js';
import { deref, fullName } from '../walk.js';
import { call, type Expr, layout, propertyKey, quote } from './typescript-layout.js';
import { typeIdentifiers } from './typescript-names.js';
import { collectNamed, dependencyOrder } from './typescript-order.js';
import { serviceDeclaration } from './typescript-services.js';
import { typeText } from './typescript-types.js';
import { valueExpr } from './typescript-values.js';

export interface TypeScriptOptions {
  /** The name of the exported schema when the root is not a named type (default `Root`). */
  readonly rootName?: string;
  /** The module the builders are imported from (default `wirekit-ts`). */
  readonly importFrom?: string;
}

/**
 * The module's text, formatted as Biome formats it. Given a list of named types and services (the
 * messages and services of a `.proto` file), it declares each of them and what they use, with no
 * root; the services (`t.service`) come last, after the messages their methods name.
 */
export function toTypeScript(
  schema: Schema | readonly (Schema | ServiceSchema)[],
  options: TypeScriptOptions = {},
): string {
  return new Generator(schema, options).module();
}

/** Names a module may not declare: words of the language and the globals generated code uses. */
const taken = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try ' +
    'typeof var void while with yield let static implements interface package private protected ' +
    'public await any unknown never object string number boolean bigint symbol undefined type ' +
    'Date Map Record Uint8Array Number Infer InferInput JsonValue ObjectSchema UnionSchema t'
  ).split(' '),
);

class Generator {
  private readonly named: Map<string, NamedSchema>;
  /** The identifier each named type is declared as, by full name. */
  private readonly ids: Map<string, string>;
  /** Every name the module declares, so that the root's name is chosen clear of them. */
  private readonly used: Set<string>;
  /** The named types grouped into cycles, in declaration order. */
  private readonly order: string[][];
  /** The cycle (by full name) each recursive type belongs to. */
  private readonly cycleOf = new Map<string, ReadonlySet<string>>();
  private readonly imports = new Set<string>(['t']);
  /** The unnamed schema declared as `Root`, if any. */
  private readonly root: Schema | undefined;
  private readonly services: readonly ServiceSchema[];

  constructor(
    schemas: Schema | readonly (Schema | ServiceSchema)[],
    private readonly options: TypeScriptOptions,
  ) {
    const listed: readonly (Schema | ServiceSchema)[] = Array.isArray(schemas) ? schemas : [schemas];
    this.services = listed.filter(isService);
    const messages = this.services.flatMap((service) =>
      (Object.values(service.methods) as MethodSchema[]).flatMap((method) => [method.input, method.output]),
    );
    const roots = [...(listed.filter((item) => !isService(item)) as Schema[]), ...messages].map(
      (schema: Schema) => (schema.kind === 'ref' ? schema.resolve() : schema),
    );
    const unnamed = roots.filter((schema) => !isNamed(schema));
    if (unnamed.length > 0 && roots.length > 1) {
      throw new WirekitError(
        'WK_SCHEMA_INVALID',
        'toTypeScript: a list of schemas must hold named types (objects, enums, unions) only.',
      );
    }
    this.root = unnamed[0];
    this.named = collectNamed(roots);
    this.order = dependencyOrder(this.named);
    for (const cycle of this.order) {
      const recursive = cycle.length > 1 || this.refersTo(cycle[0] as string, cycle[0] as string);
      if (recursive) for (const name of cycle) this.cycleOf.set(name, new Set(cycle));
    }
    const entries = [...this.named].map(([name, type]) => ({
      fullName: name,
      name: type.name,
      withInput: this.cycleOf.has(name) && type.kind !== 'enum',
    }));
    for (const service of this.services) {
      const name = serviceName(service);
      if (this.named.has(name) || entries.some((entry) => entry.fullName === name)) {
        throw new WirekitError(
          'WK_SCHEMA_INVALID',
          `toTypeScript: ${name} names both a service and another type or service; rename one of them.`,
        );
      }
      entries.push({ fullName: name, name: service.name, withInput: false });
    }
    ({ ids: this.ids, used: this.used } = typeIdentifiers(entries, taken));
  }

  module(): string {
    const blocks: string[] = [];
    for (const cycle of this.order) {
      const recursive = this.cycleOf.has(cycle[0] as string);
      for (const name of cycle) blocks.push(this.declaration(this.named.get(name) as NamedSchema, recursive));
    }
    for (const service of this.services) {
      blocks.push(
        serviceDeclaration(
          service,
          this.ids.get(serviceName(service)) as string,
          (message) => this.ids.get(fullName(message)) as string,
        ),
      );
    }
    if (this.root !== undefined) {
      let rootId = this.options.rootName ?? 'Root';
      while (this.used.has(rootId)) rootId = `${rootId}_`;
      this.imports.add('type Infer');
      const value = this.expr(this.root, undefined);
      blocks.push(
        `export const ${rootId} = ${layout(value, 0, `export const ${rootId} = `.length, 1)};\n` +
          `export type ${rootId} = Infer<typeof ${rootId}>;`,
      );
    }
    const names = [...this.imports].sort(bySpecifier);
    const from = quote(this.options.importFrom ?? 'wirekit-ts');
    return `import { ${names.join(', ')} } from ${from};\n\n${blocks.join('\n\n')}\n`;
  }

  /** Whether the type `from` mentions `to` (itself, for a type that contains itself). */
  private refersTo(from: string, to: string): boolean {
    const seen = new Set<Schema>();
    const stack = childrenOfNode(this.named.get(from) as NamedSchema);
    while (stack.length > 0) {
      const node = deref(stack.pop() as Schema);
      if (isNamed(node)) {
        if (fullName(node) === to) return true;
        continue;
      }
      if (seen.has(node)) continue;
      seen.add(node);
      stack.push(...childrenOfNode(node));
    }
    return false;
  }

  private declaration(type: NamedSchema, recursive: boolean): string {
    const id = this.ids.get(fullName(type)) as string;
    const doc = type.doc === undefined ? '' : `${docComment(type.doc)}\n`;
    const value = this.namedExpr(type);
    if (!recursive || type.kind === 'enum') {
      this.imports.add('type Infer');
      const head = `export const ${id} = `;
      return `${doc}${head}${layout(value, 0, head.length, 1)};\nexport type ${id} = Infer<typeof ${id}>;`;
    }
    const reference = (target: NamedSchema, mode: 'value' | 'input'): string => {
      const targetId = this.ids.get(fullName(target)) as string;
      if (this.cycleOf.has(fullName(target))) return mode === 'value' ? targetId : `${targetId}Input`;
      if (mode === 'value' || !hasDefaults(target)) return targetId;
      this.imports.add('type InferInput');
      return `InferInput<typeof ${targetId}>`;
    };
    const valueType = typeText(type, 'value', reference, this.imports);
    const inputType = typeText(type, 'input', reference, this.imports);
    const differs = valueType !== inputType || this.cycleInputDiffers(type, reference);
    const kind = type.kind === 'object' ? 'ObjectSchema' : 'UnionSchema';
    this.imports.add(`type ${kind}`);
    const annotation = differs ? `${kind}<${id}, ${id}Input>` : `${kind}<${id}>`;
    const declare = (name: string, text: string): string =>
      type.kind === 'object' ? `export interface ${name} ${text}` : `export type ${name} = ${text};`;
    const head = `export const ${id}: ${annotation} = `;
    return [
      `${doc}${declare(id, valueType)}`,
      ...(differs ? [declare(`${id}Input`, inputType)] : []),
      `${head}${layout(value, 0, head.length, 1)};`,
    ].join('\n');
  }

  /** Whether any type of this type's cycle has an input type other than its value type. */
  private cycleInputDiffers(
    type: NamedSchema,
    reference: (target: NamedSchema, mode: 'value' | 'input') => string,
  ): boolean {
    const cycle = this.cycleOf.get(fullName(type)) ?? new Set<string>();
    const scratch = new Set<string>();
    return [...cycle].some((name) => {
      const member = this.named.get(name) as NamedSchema;
      const plain = (target: NamedSchema) => reference(target, 'value');
      return typeText(member, 'value', plain, scratch) !== typeText(member, 'input', plain, scratch);
    });
  }

  private namedExpr(type: NamedSchema): Expr {
    const options = namedOptions(type);
    switch (type.kind) {
      case 'enum':
        return call(
          't.enum',
          quote(type.name),
          { items: type.members.map(quote) },
          ...enumOptions(type, options),
        );
      case 'union':
        return call(
          't.union',
          quote(type.name),
          quote(type.tag),
          { items: type.variants.map((variant) => this.expr(variant, type)) },
          ...options,
        );
      case 'object':
        return this.objectExpr(type);
    }
  }

  private objectExpr(type: ObjectSchema): Expr {
    const automatic = assignFieldNumbers(
      type.name,
      type.fields.map((field) => ({ name: field.name, id: undefined })),
      type.reserved,
    );
    const pinned = type.fields.some((field, index) => field.id !== automatic[index]);
    const fields: [string, Expr][] = type.fields.map((field) => [
      propertyKey(field.name),
      this.fieldExpr(field, pinned, type),
    ]);
    return call('t.object', quote(type.name), { entries: fields, expanded: true }, ...namedOptions(type));
  }

  private fieldExpr(field: FieldDef, pinned: boolean, owner: NamedSchema): Expr {
    const schema = this.expr(field.schema, owner);
    const meta: [string, Expr][] = [];
    if (pinned) meta.push(['id', String(field.id)]);
    if (field.doc !== undefined) meta.push(['doc', quote(field.doc)]);
    if (field.default !== undefined) meta.push(['default', valueExpr(field.schema, field.default)]);
    if (field.deprecated === true) meta.push(['deprecated', 'true']);
    if (field.presence !== undefined) meta.push(['presence', quote(field.presence)]);
    if (field.aliases !== undefined) meta.push(['aliases', { items: field.aliases.map(quote) }]);
    return meta.length === 0 ? schema : call('t.field', schema, { entries: meta });
  }

  /** The builder call for a schema met inside `owner` (undefined at the root). */
  private expr(schema: Schema, owner: NamedSchema | undefined): Expr {
    if (schema.kind === 'ref' || isNamed(schema)) {
      const target = deref(schema) as NamedSchema;
      const id = this.ids.get(fullName(target)) as string;
      const cycle = owner === undefined ? undefined : this.cycleOf.get(fullName(owner));
      return cycle?.has(fullName(target)) === true ? `t.lazy(() => ${id})` : id;
    }
    const options = (entries: [string, Expr][]): Expr[] => (entries.length === 0 ? [] : [{ entries }]);
    const some = (pairs: [string, number | string | undefined][]): [string, Expr][] =>
      pairs.flatMap(([key, value]) =>
        value === undefined ? [] : [[key, typeof value === 'string' ? quote(value) : String(value)]],
      );
    if (isSmallInt(schema)) {
      return call(
        `t.${schema.kind}`,
        ...options(
          some([
            ['proto', schema.proto],
            ['min', schema.min],
            ['max', schema.max],
            ['avro', schema.avro],
          ]),
        ),
      );
    }
    switch (schema.kind) {
      case 'int64':
      case 'uint64':
        return call(
          `t.${schema.kind}`,
          ...options([
            ...(schema.as === 'number' ? [['as', quote('number')] as [string, Expr]] : []),
            ...some([
              ['proto', schema.proto],
              ['avro', schema.avro],
            ]),
          ]),
        );
      case 'float32':
      case 'float64':
        return call(
          `t.${schema.kind}`,
          ...options(
            some([
              ['min', schema.min],
              ['max', schema.max],
            ]),
          ),
        );
      case 'decimal':
        return call(
          't.decimal',
          ...options([
            ...some([
              ['precision', schema.precision],
              ['scale', schema.scale],
            ]),
            ...avroFixedEntry(schema.avro),
          ]),
        );
      case 'string':
        return call(
          't.string',
          ...options(
            some([
              ['minLength', schema.minLength],
              ['maxLength', schema.maxLength],
              ['pattern', schema.pattern],
              ['avro', schema.avro],
            ]),
          ),
        );
      case 'bytes':
        return call(
          't.bytes',
          ...options([
            ...some([
              ['maxLength', schema.maxLength],
              ['size', schema.size],
            ]),
            ...avroFixedEntry(schema.avro),
          ]),
        );
      case 'timestamp':
        return call(
          't.timestamp',
          ...options(
            some([
              ['precision', schema.precision === 'ms' ? undefined : schema.precision],
              ['range', schema.range],
            ]),
          ),
        );
      case 'literal':
        return call(
          't.literal',
          typeof schema.value === 'string' ? quote(schema.value) : String(schema.value),
        );
      case 'array':
        return call(
          't.array',
          this.expr(schema.items, owner),
          ...options([
            ...some([
              ['minItems', schema.minItems],
              ['maxItems', schema.maxItems],
            ]),
            ...(schema.packed === false ? [['packed', 'false'] as [string, Expr]] : []),
          ]),
        );
      case 'either':
        return call('t.either', { items: schema.branches.map((branch) => this.expr(branch, owner)) });
      case 'map':
        return call('t.map', this.expr(schema.keys, owner), this.expr(schema.values, owner));
      case 'optional':
        return call('t.optional', this.expr(schema.inner, owner));
      case 'nullable':
        return call(
          't.nullable',
          this.expr(schema.inner, owner),
          ...options(schema.proto === undefined ? [] : [['proto', quote(schema.proto)]]),
        );
      case 'json':
        return call('t.json', ...options(schema.proto === undefined ? [] : [['proto', quote(schema.proto)]]));
      default:
        return call(`t.${schema.kind}`);
    }
  }
}

/** Whether a default is met anywhere inside the type: only then do its input and value types differ. */
function hasDefaults(type: NamedSchema): boolean {
  const seen = new Set<Schema>();
  const stack: Schema[] = [type];
  while (stack.length > 0) {
    const node = deref(stack.pop() as Schema);
    if (seen.has(node)) continue;
    seen.add(node);
    if (node.kind === 'object' && node.fields.some((field) => field.default !== undefined)) return true;
    stack.push(...childrenOfNode(node));
  }
  return false;
}

function isNamed(schema: Schema): schema is NamedSchema {
  return schema.kind === 'object' || schema.kind === 'enum' || schema.kind === 'union';
}

/** A node's children without following a ref (a ref's target is met by name). */
function childrenOfNode(schema: Schema): Schema[] {
  switch (schema.kind) {
    case 'object':
      return schema.fields.map((field) => field.schema);
    case 'union':
      return [...(schema as UnionSchema).variants];
    case 'either':
      return [...schema.branches];
    case 'array':
      return [schema.items];
    case 'map':
      return [schema.values];
    case 'optional':
    case 'nullable':
      return [schema.inner];
    default:
      return [];
  }
}

/** The `avro` option of a sized bytes or a decimal: the fixed's name, namespace, aliases and the rest. */
function avroFixedEntry(form: AvroFixedForm | AvroDecimalForm | undefined): [string, Expr][] {
  if (form === undefined) return [];
  const entries: [string, Expr][] = [['name', quote(form.name)]];
  if (form.namespace !== undefined) entries.push(['namespace', quote(form.namespace)]);
  if (form.aliases !== undefined) entries.push(['aliases', { items: form.aliases.map(quote) }]);
  if ('size' in form) entries.push(['size', String(form.size)]);
  if ('logicalType' in form && form.logicalType !== undefined)
    entries.push(['logicalType', quote(form.logicalType)]);
  return [['avro', { entries }]];
}

/** The options argument of a named type's builder: namespace, doc, aliases, reserved, oneofs (none: no argument). */
function namedOptions(type: NamedSchema): Expr[] {
  const entries: [string, Expr][] = [];
  if (type.namespace !== undefined) entries.push(['namespace', quote(type.namespace)]);
  if (type.doc !== undefined) entries.push(['doc', quote(type.doc)]);
  if (type.aliases !== undefined) entries.push(['aliases', { items: type.aliases.map(quote) }]);
  if (type.kind === 'object' && type.reserved !== undefined)
    entries.push(['reserved', { items: type.reserved.map(String) }]);
  if (type.kind === 'object' && type.oneofs !== undefined) {
    const groups = type.oneofs.map((group): [string, Expr] => [
      group.name,
      { items: group.fields.map(quote) },
    ]);
    entries.push(['oneofs', { entries: groups }]);
  }
  return entries.length === 0 ? [] : [{ entries }];
}

/** An enum's options: a .proto enum's numbers join the named options. */
function enumOptions(type: EnumSchema, named: Expr[]): Expr[] {
  if (type.numbers === undefined) return named;
  const numbers: [string, Expr] = ['numbers', { items: type.numbers.map(String) }];
  const [first] = named as { entries: [string, Expr][] }[];
  return [{ entries: [...(first?.entries ?? []), numbers] }];
}

function docComment(doc: string): string {
  const lines = doc.replaceAll('*/', '*\\/').split(/\r?\n/);
  if (lines.length === 1) return `/** ${lines[0]} */`;
  return ['/**', ...lines.map((line) => (line === '' ? ' *' : ` * ${line}`)), ' */'].join('\n');
}

/** Import specifiers in Biome's order: by name ignoring case and the `type` keyword. */
function bySpecifier(a: string, b: string): number {
  const name = (specifier: string): string => specifier.replace(/^type /, '');
  const [x, y] = [name(a), name(b)];
  const folded = x.toLowerCase().localeCompare(y.toLowerCase(), 'en');
  return folded !== 0 ? folded : x < y ? -1 : x > y ? 1 : 0;
}
