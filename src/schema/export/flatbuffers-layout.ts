/**
 * The FlatBuffers layout of a schema: every table, enum and union `toFlatBuffers` declares, each
 * table's vtable slots in order (fields by ascending number, a deprecated placeholder for every
 * unused number below the highest, two slots for a union: its type, then its value), the tables
 * generated around vector elements a vector cannot hold, around map entries and around a root that
 * is not an object, and each enum's base type. flatbuffers.ts prints it; the FlatBuffers codec's plan
 * (codecs/flatbuffers/planner.ts) follows it, so the bytes on the wire are always the ones the
 * printed `.fbs` describes. docs/mapping/flatbuffers.md is the contract.
 */
import { isIdentifier } from '../names.js';
import type {
  EitherSchema,
  EnumSchema,
  FieldDef,
  MapSchema,
  ObjectSchema,
  Schema,
  UnionSchema,
} from '../types.js';
import { deref } from '../walk.js';
import type {
  FbsEnum,
  FbsField,
  FbsLayout,
  FbsTable,
  FbsUnion,
  FbsValue,
} from './flatbuffers-layout-types.js';
import { fieldBase } from './naming.js';
import {
  checkFieldNames,
  type ExportPlan,
  type FieldName,
  type Leaf,
  planExport,
  type Refuse,
  type StoredKind,
  storedKind,
  unwrapPresence,
} from './plan.js';

export interface FlatBuffersOptions {
  /** The FlatBuffers namespace; by default the namespace the schema's types share, else none. */
  readonly namespace?: string;
  /** The table generated around a root that is not an object (default 'Root'). */
  readonly rootName?: string;
}

export interface FbsLayoutOptions extends FlatBuffersOptions {
  /** What a refusal does; by default it throws WK_EXPORT_UNSUPPORTED. */
  readonly refuse?: Refuse;
}

export const fbsFormat = 'FlatBuffers';

/** The longest run of unused field numbers filled with placeholders; beyond it, vtables bloat. */
export const maxSlotGap = 1000;

export type {
  FbsEnum,
  FbsField,
  FbsLayout,
  FbsTable,
  FbsUnion,
  FbsValue,
} from './flatbuffers-layout-types.js';

// flatc reads these as its own types wherever a field names a type, so a user type cannot use them.
const reservedNames = new Set([
  ...['bool', 'byte', 'ubyte', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double'],
  ...['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'float32', 'float64'],
  'string',
]);

/** The flatc base type of each stored kind (a timestamp is a `long`). */
const baseTypes: Record<StoredKind, string> = {
  bool: 'bool',
  int8: 'byte',
  uint8: 'ubyte',
  int16: 'short',
  uint16: 'ushort',
  int32: 'int',
  uint32: 'uint',
  int64: 'long',
  uint64: 'ulong',
  float32: 'float',
  float64: 'double',
  string: 'string',
  bytes: '[ubyte]',
};

export function fbsLayout(schema: Schema, options: FbsLayoutOptions = {}): FbsLayout {
  return new LayoutBuilder(schema, options).build();
}

class LayoutBuilder {
  private readonly plan: ExportPlan;
  private readonly objects = new Map<ObjectSchema, FbsTable>();
  private readonly enums = new Map<EnumSchema, FbsEnum>();
  private readonly unions = new Map<UnionSchema, FbsUnion>();
  /** The unions generated for eithers, one per field that holds one, in the order they are met. */
  private readonly eithers: FbsUnion[] = [];
  private readonly tables: FbsTable[] = [];

  constructor(
    private readonly schema: Schema,
    options: FbsLayoutOptions,
  ) {
    this.plan = planExport(schema, {
      format: fbsFormat,
      namespace: options.namespace,
      rootName: options.rootName,
      rootKinds: ['object'],
      reservedNames,
      refuse: options.refuse,
    });
    // Declared up front, so that a field finds its type's table before (or while) it is filled.
    for (const type of this.plan.types) {
      if (type.kind === 'object') this.objects.set(type, newTable(type.name, 'object', type));
      else if (type.kind === 'enum')
        this.enums.set(type, { name: type.name, schema: type, base: enumBase(type) });
      else this.unions.set(type, { name: type.name, schema: type, variants: [] });
    }
  }

  build(): FbsLayout {
    const wrapper =
      this.plan.rootWrapper === undefined
        ? undefined
        : this.table(
            newTable(this.plan.rootWrapper, 'wrapper', undefined),
            [{ name: 'value', id: 1, schema: this.schema }],
            false,
          );
    for (const table of this.objects.values())
      this.table(table, (table.schema as ObjectSchema).fields, false);
    for (const type of this.enums.values()) this.checkEnum(type.schema);
    for (const [type, union] of this.unions) this.union(union, type);
    return {
      namespace: this.plan.namespace,
      root: wrapper ?? (this.objects.get(deref(this.schema) as ObjectSchema) as FbsTable),
      rootWrapped: wrapper !== undefined,
      enums: [...this.enums.values()],
      unions: [...this.unions.values(), ...this.eithers],
      tables: this.tables,
    };
  }

  /**
   * Fills a table's slots; tables generated for its fields follow it. `generated` marks a vector
   * element's wrapper or a map entry: the tables generated for its own field are named after it alone.
   */
  private table(table: FbsTable, defs: readonly FieldDef[], generated: boolean): FbsTable {
    this.tables.push(table);
    // A literal field of its own carries nothing; a map's value is stored even then, as in proto.
    const omitted = table.origin === 'entry' ? [] : defs.filter((def) => def.schema.kind === 'literal');
    const stored = defs.filter((def) => !omitted.includes(def)).sort((a, b) => a.id - b.id);
    const names: FieldName[] = stored.flatMap((def) =>
      isUnion(def.schema)
        ? [def, { name: `${def.name}_type`, label: `the type field flatc adds for union ${def.name}` }]
        : [def],
    );
    checkFieldNames(fbsFormat, table.name, names, this.plan.refuse);
    const taken = new Set(names.map((field) => field.name));
    const literals = new Map(omitted.map((def) => [def.id, def]));
    const fields = new Map<FieldDef, FbsField>();
    let next = 1;
    for (const def of stored) {
      this.checkGap(table, taken, next, def);
      for (; next < def.id; next++) {
        table.slots.push({ is: 'placeholder', number: next, literal: literals.get(next) });
      }
      next = def.id + 1;
      const base = generated ? table.name : fieldBase(table.name, def.name);
      const field = { def, slot: table.slots.length, ...this.fieldValue(base, def.schema) };
      fields.set(def, field);
      if (field.value.is === 'union') table.slots.push({ is: 'unionType', field });
      table.slots.push({ is: 'field', field });
    }
    table.trailing.push(
      ...[...literals.values()].filter((def) => def.id >= next).sort((a, b) => a.id - b.id),
    );
    for (const def of defs) table.members.push({ def, field: fields.get(def) });
    return table;
  }

  /** Refuses the placeholders that the numbers from `next` up to `def`'s would need, where they cannot be. */
  private checkGap(table: FbsTable, taken: ReadonlySet<string>, next: number, def: FieldDef): void {
    if (def.id - next > maxSlotGap) {
      this.plan.refuse(
        `${table.name}.${def.name}: numbers ${next} to ${def.id - 1} are unused, and each would need ` +
          `a placeholder slot (at most ${maxSlotGap} in a row); give the field a lower number.`,
      );
    }
    for (let number = next; number < def.id; number++) {
      if (taken.has(`_reserved_${number}`)) {
        this.plan.refuse(
          `${table.name}: field _reserved_${number} clashes with the placeholder for number ${number}.`,
        );
      }
    }
  }

  /**
   * The value of a table field; `base` prefixes the names of the tables and unions generated for it.
   */
  private fieldValue(base: string, schema: Schema): Pick<FbsField, 'value' | 'optionalScalar'> {
    const { inner, present } = unwrapPresence(schema);
    if (inner.kind === 'array') {
      const element = this.element(inner.items, `${base}_Item`);
      return { value: { is: 'vector', element, schema: inner }, optionalScalar: false };
    }
    if (inner.kind === 'map') {
      return {
        value: { is: 'map', entry: this.entry(inner, `${base}_Entry`), schema: inner },
        optionalScalar: false,
      };
    }
    const value = inner.kind === 'either' ? this.either(inner, base) : this.value(inner);
    return { value, optionalScalar: present && isScalar(value) };
  }

  /**
   * The element of a vector. A vector holds no vectors (bytes included), no unions (not every flatc
   * generator supports them, FlatBuffers' vectors of unions being newer than most), eithers among
   * them, and no absent elements, so each such element gets a table.
   */
  private element(schema: Schema, candidate: string): FbsValue {
    const node = deref(schema);
    switch (node.kind) {
      case 'optional':
      case 'nullable':
      case 'array':
      case 'map':
      case 'bytes':
      case 'union':
      case 'either': {
        const name = this.plan.names.claim(candidate);
        const field = node.kind === 'array' ? 'items' : node.kind === 'map' ? 'entries' : 'value';
        const table = this.table(
          newTable(name, 'wrapper', undefined),
          [{ name: field, id: 1, schema: node }],
          true,
        );
        return { is: 'table', table };
      }
      default:
        return this.value(node);
    }
  }

  /** A map is a vector of entry tables, keyed so that flatc's lookup-by-key works on sorted vectors. */
  private entry(map: MapSchema, candidate: string): FbsTable {
    const name = this.plan.names.claim(candidate);
    return this.table(
      newTable(name, 'entry', undefined),
      [
        { name: 'key', id: 1, schema: map.keys },
        { name: 'value', id: 2, schema: map.values },
      ],
      true,
    );
  }

  private value(node: Leaf): FbsValue {
    switch (node.kind) {
      case 'timestamp':
        return { is: 'leaf', type: 'long', schema: node };
      case 'enum':
        return { is: 'enum', enum: this.enums.get(node) as FbsEnum };
      case 'object':
        return { is: 'table', table: this.objects.get(node) as FbsTable };
      case 'either':
        // fieldValue lays an either out, as a union of the field; it is never a vector's element.
        return this.either(node, 'Value');
      case 'union':
        return { is: 'union', union: this.unions.get(node) as FbsUnion };
      default:
        return { is: 'leaf', type: baseTypes[storedKind(node)], schema: node };
    }
  }

  /**
   * The union generated for an either, `<base>_Either`: member i + 1 is the table of branch i, an
   * object's own or a wrapper `<base>_<kind or type name>` whose one field `value` holds the branch.
   */
  private either(schema: EitherSchema, base: string): FbsValue {
    const name = this.plan.names.claim(`${base}_Either`);
    const union: FbsUnion = { name, schema, variants: [] };
    if (schema.branches.length > 255) {
      this.plan.refuse(
        `${name}: an either of ${schema.branches.length} branches; FlatBuffers holds at most 255.`,
      );
    }
    this.eithers.push(union);
    for (const branch of schema.branches) {
      const node = deref(branch);
      if (node.kind === 'object') {
        if (node.name === 'NONE') this.plan.refuse(`${name}: a branch cannot be named NONE.`);
        union.variants.push(this.objects.get(node) as FbsTable);
        continue;
      }
      const wrapper = this.plan.names.claim(`${base}_${branchLabel(node)}`);
      union.variants.push(
        this.table(newTable(wrapper, 'wrapper', undefined), [{ name: 'value', id: 1, schema: branch }], true),
      );
    }
    return { is: 'union', union };
  }

  private checkEnum(type: EnumSchema): void {
    for (const member of type.members) {
      // `null` is flatc's word for an absent optional scalar, so it cannot name a member.
      if (!isIdentifier(member) || member === 'null') {
        this.plan.refuse(`enum ${type.name}: member ${JSON.stringify(member)} is not a usable identifier.`);
      }
    }
  }

  private union(union: FbsUnion, type: UnionSchema): void {
    // The union's type field is one unsigned byte with 0 for NONE, so at most 255 variants fit.
    if (type.variants.length > 255) {
      this.plan.refuse(
        `union ${type.name} has ${type.variants.length} variants; FlatBuffers holds at most 255.`,
      );
    }
    for (const variant of type.variants) {
      // flatc numbers a union's members from 1 and calls 0 NONE, so no member can take that name.
      if (variant.name === 'NONE') this.plan.refuse(`union ${type.name}: a variant cannot be named NONE.`);
      union.variants.push(this.objects.get(variant) as FbsTable);
    }
  }
}

function newTable(name: string, origin: FbsTable['origin'], schema: ObjectSchema | undefined): FbsTable {
  return { name, origin, schema, members: [], slots: [], trailing: [] };
}

/** Members are numbered from 0 in order, so the smallest unsigned type that counts them will do. */
function enumBase(type: EnumSchema): FbsEnum['base'] {
  const size = type.members.length;
  return size <= 2 ** 8 ? 'ubyte' : size <= 2 ** 16 ? 'ushort' : 'uint';
}

function isUnion(schema: Schema): boolean {
  const kind = unwrapPresence(schema).inner.kind;
  return kind === 'union' || kind === 'either';
}

/** What names a branch's wrapper table: its enum's name, else its kind (`String`, `Uint16`, ...). */
function branchLabel(node: Schema): string {
  const label = node.kind === 'enum' || node.kind === 'union' ? node.name : node.kind;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** Stored in the table itself rather than behind an offset: what flatc's optional scalars cover. */
function isScalar(value: FbsValue): boolean {
  switch (value.is) {
    case 'enum':
      return true;
    case 'leaf':
      return value.type !== 'string' && value.type !== '[ubyte]';
    default:
      return false;
  }
}
