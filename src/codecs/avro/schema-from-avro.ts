/**
 * A wirekit schema read from an Avro schema: what decodes Avro data whose only description is an
 * Avro schema someone else wrote (a registry's writer schema, an .avsc file), since wirekit's codec
 * reads into a wirekit schema. The mapping inverts docs/mapping/avro.md where it can, so the schema
 * read back from `toAvro(s)` describes the same values as `s`, and the Avro schema exported from the
 * result reads the same bytes as the original:
 *
 * - records → objects (name, namespace, doc, aliases; fields with doc, aliases, defaults and the
 *   `deprecated` mark toAvro writes, numbered in order); enums → enums; arrays → arrays; maps →
 *   string-keyed maps;
 * - boolean, int, long, float, double, string, bytes → bool, int32, int64, float32, float64, string,
 *   bytes; fixed → bytes of its size (`t.bytes({ size, avro: { name, namespace, aliases } })`), so
 *   that toAvro writes the same fixed and the codec reads it with no length in front;
 * - a union with "null" → nullable (whichever branch null is); a union of two or more records →
 *   a tagged union whose tag, a literal field every such record gets, holds the record's full name
 *   (as Avro's JSON encoding names union branches); a lone "null" → nullable(json); any other
 *   union of two or more non-null branches → an untagged union (t.either) of them in order, a long
 *   there held as a safe-integer number, several records there as one tagged union;
 * - logical types, each back out of toAvro as it came in: decimal on bytes → decimal(precision,
 *   scale), on a fixed → the same with the fixed kept (`avro: { name, size }`); timestamp-millis,
 *   -micros, -nanos → timestamp ms/us/ns; date and time-millis → int32 with `avro: 'date'` or
 *   `'time-millis'`, time-micros and local-timestamp-millis, -micros, -nanos → int64 with that form
 *   (the day count or the wall-clock count Avro stores: a wall-clock time is no instant, so it is not
 *   shown as a Date); uuid → a string with `avro: 'uuid'`, or on a fixed(16) the 16 bytes with
 *   `logicalType: 'uuid'`; duration → its fixed(12)'s bytes with `logicalType: 'duration'`.
 *   A logical type that does not fit its type (a date on a long, a decimal wider than its fixed)
 *   is ignored, as the specification asks; so is one wirekit does not know.
 *
 * What is lost: timestamp-micros and -nanos are read into a Date, which holds milliseconds, so the
 * digits below the millisecond are dropped (toward the past, as for every timestamp: docs/values.md)
 * and written back as zeros. A local-timestamp keeps them: it stays the integer.
 *
 * Refused (WK_SCHEMA_IMPORT, with the path into the Avro schema): what the specification forbids
 * (an enum default that is not a symbol, two union branches of one type, defaults that do not fit
 * their field's type: import-defaults.ts), and a union whose branches wirekit's untagged union
 * cannot tell apart by the value (["int", "long"], ["string", "bytes"], two fixed types: both are
 * bytes, which t.either tells apart by class, not by size).
 */
import { isWirekitError, type Path, SchemaImportError } from '../../errors/index.js';
import { fixedLogicalSizes, maxDecimalPrecision } from '../../schema/avro-forms.js';
import type { FieldInput } from '../../schema/builders.js';
import { type JsonValue, type ObjectSchema, type Schema, t } from '../../schema/index.js';
import type { AvroIntForm, AvroLongForm } from '../../schema/types.js';
import {
  type AvroEnum,
  type AvroFixed,
  type AvroNamedTypes,
  type AvroRecord,
  type AvroType,
  type AvroUnion,
  parseAvroSchema,
  shortName,
} from './avro-schema.js';
import { AvroDefaults, isRaw, isUntagged, type Raw, timestampPrecisions } from './import-defaults.js';
import { placeText, refuse, shownParts } from './import-refusal.js';
import { avroSchemaJson } from './schema-text.js';

/**
 * The Avro schema (its JSON text, or the parsed JSON) as a wirekit schema. Whatever stops the
 * import is a WK_SCHEMA_IMPORT error, with the path in the Avro schema where one is known.
 */
export function schemaFromAvro(
  avro: string | JsonValue,
  references: readonly (string | JsonValue)[] = [],
): Schema {
  const raw = typeof avro === 'string' ? avroSchemaJson(avro) : avro;
  try {
    // A registry's references (schemas that define named types `avro` only names) are read first;
    // each one's JSON is kept, so that the type, met by name, is imported with its docs and defaults.
    const named: AvroNamedTypes = new Map();
    const rawOfReferenced = new Map<AvroType, unknown>();
    for (const reference of references) {
      const json = typeof reference === 'string' ? avroSchemaJson(reference) : reference;
      rawOfReferenced.set(parseAvroSchema(json as JsonValue, named), json);
    }
    const parsed = parseAvroSchema(raw as JsonValue, named);
    return new Importer(parsed, rawOfReferenced).type(raw, parsed, []);
  } catch (error) {
    // The reader and the builders speak of schemas in general; an import names its own failure.
    if (!isWirekitError(error) || error.code === 'WK_SCHEMA_IMPORT') throw error;
    // Only the Avro reader's paths are places in the Avro schema (a builder's would be wirekit's).
    const path = error.format === 'avro' ? error.path : undefined;
    const where = path === undefined ? '' : `${placeText(path)}: `;
    throw new SchemaImportError(`${where}the Avro schema cannot be imported: ${error.message}`, {
      format: 'avro',
      path: error.path,
      cause: error,
    });
  }
}

const deprecatedNote = '(Deprecated.)';

/** Names tried, in order, for the tag of record unions: the first no member record has as a field. */
const tagCandidates = ['type', 'kind', 'variant', '_type'];

class Importer {
  private readonly built = new Map<AvroRecord | AvroEnum, Schema>();
  private readonly building = new Set<AvroRecord>();
  private readonly rawFields = new Map<AvroRecord, readonly Raw[]>();
  private readonly unions = new Map<string, Schema>();
  /** Records that are branches of a record union, and so carry the tag. */
  private readonly variants = new Set<AvroRecord>();
  private readonly tag: string;
  private readonly defaults: AvroDefaults;

  constructor(
    root: AvroType,
    /** The JSON each referenced schema's root type was read from, for types the schema only names. */
    private readonly rawOfReferenced: ReadonlyMap<AvroType, unknown> = new Map(),
  ) {
    findVariants(root, this.variants, new Set());
    const taken = new Set([...this.variants].flatMap((record) => record.fields.map((field) => field.name)));
    let tag = tagCandidates.find((name) => !taken.has(name));
    for (let n = 2; tag === undefined; n++) if (!taken.has(`_type${n}`)) tag = `_type${n}`;
    this.tag = tag;
    this.defaults = new AvroDefaults({ rawFields: this.rawFields, variants: this.variants, tag });
  }

  /** `raw` is the JSON `parsed` was read from, for what the parsed form drops (docs, defaults). */
  type(raw: unknown, parsed: AvroType, path: Path): Schema {
    if (typeof raw === 'string' && this.rawOfReferenced.has(parsed)) raw = this.rawOfReferenced.get(parsed);
    // A schema nested under "type" ({"type": {"type": "array", ...}}) is read as the inner one.
    while (isRaw(raw) && typeof raw.type === 'object' && raw.type !== null) {
      raw = raw.type;
      path = [...path, 'type'];
    }
    const spec = isRaw(raw) ? raw : {};
    switch (parsed.type) {
      case 'null':
        return t.nullable(t.json());
      case 'boolean':
        return t.bool();
      case 'int':
        return t.int32({ avro: intForms.find((form) => form === parsed.logicalType) });
      case 'long': {
        const precision = timestampPrecisions[parsed.logicalType as keyof typeof timestampPrecisions];
        if (precision !== undefined) return t.timestamp({ precision });
        return t.int64({ avro: longForms.find((form) => form === parsed.logicalType) });
      }
      case 'float':
        return t.float32();
      case 'double':
        return t.float64();
      case 'string':
        return t.string({ avro: parsed.logicalType === 'uuid' ? 'uuid' : undefined });
      case 'bytes':
        return parsed.logicalType === 'decimal'
          ? t.decimal({ precision: parsed.precision, scale: parsed.scale })
          : t.bytes();
      case 'fixed':
        return fixedSchema(spec, parsed);
      case 'enum':
        return this.enumeration(spec, parsed, path);
      case 'array':
        return t.array(this.type(spec.items, parsed.items, [...path, 'items']));
      case 'map':
        return t.map(t.string(), this.type(spec.values, parsed.values, [...path, 'values']));
      case 'union':
        return this.union(Array.isArray(raw) ? raw : [], parsed, path);
      case 'record':
        return this.record(spec, parsed, path);
    }
  }

  private enumeration(spec: Raw, parsed: AvroEnum, path: Path): Schema {
    const known = this.built.get(parsed);
    if (known !== undefined) return known;
    // The symbol a reader takes for one it does not know must be one it knows (AVRO-3229).
    if ('default' in spec && !parsed.symbols.includes(spec.default as string))
      refuse([...path, 'default'], `the default of enum ${parsed.name} is not one of its symbols.`);
    const schema = t.enum(shortName(parsed.name), parsed.symbols, namedOptions(spec, parsed));
    this.built.set(parsed, schema);
    return schema;
  }

  private record(spec: Raw, parsed: AvroRecord, path: Path): Schema {
    const known = this.built.get(parsed);
    if (known !== undefined) return known;
    // A record met inside itself: a reference, resolved once the record below is built.
    if (this.building.has(parsed)) return t.lazy(() => this.built.get(parsed) as ObjectSchema);
    this.building.add(parsed);
    const rawFields = Array.isArray(spec.fields) ? (spec.fields as unknown[]).filter(isRaw) : [];
    this.rawFields.set(parsed, rawFields);
    const fields: [string, FieldInput][] = [];
    if (this.variants.has(parsed)) fields.push([this.tag, t.literal(parsed.name)]);
    parsed.fields.forEach((field, i) => {
      const rawField = rawFields[i] ?? {};
      const fieldPath = [...path, 'fields', i];
      const schema = this.type(rawField.type, field.type, [...fieldPath, 'type']);
      const where = `${parsed.name}.${field.name}`;
      const value =
        'default' in rawField
          ? this.defaults.read(field.type, rawField.default, where, [...fieldPath, 'default'])
          : undefined;
      // toAvro marks a deprecated field with an attribute and a note at the end of its doc.
      const deprecated = rawField.deprecated === true;
      let doc = typeof rawField.doc === 'string' ? rawField.doc : undefined;
      if (deprecated && doc?.endsWith(deprecatedNote))
        doc = doc.slice(0, -deprecatedNote.length).trimEnd() || undefined;
      fields.push([
        field.name,
        t.field(schema, {
          doc,
          default: value,
          deprecated: deprecated || undefined,
          aliases: field.aliases.length === 0 ? undefined : field.aliases,
        }),
      ]);
    });
    // fromEntries defines each name as an own key, so a field named __proto__ reaches t.object's check.
    const schema = t.object(shortName(parsed.name), Object.fromEntries(fields), namedOptions(spec, parsed));
    this.built.set(parsed, schema);
    this.building.delete(parsed);
    return schema;
  }

  private union(raw: readonly unknown[], parsed: AvroUnion, path: Path): Schema {
    checkBranchesDiffer(parsed, path);
    const branches = parsed.branches.map((type, i) => ({ type, raw: raw[i], path: [...path, i] }));
    const present = branches.filter((branch) => branch.type.type !== 'null');
    const nullable = present.length < branches.length;
    if (present.length === 0) return t.nullable(t.json());
    let inner: Schema;
    if (present.length === 1) {
      const [only] = present as [(typeof present)[number]];
      inner = this.type(only.raw, only.type, only.path);
    } else if (!isUntagged(parsed)) {
      inner = this.recordUnion(
        present.map((branch) => ({ record: branch.type as AvroRecord, raw: branch.raw, path: branch.path })),
      );
    } else {
      inner = this.either(parsed, present, path);
    }
    return nullable ? t.nullable(inner) : inner;
  }

  /**
   * A union of several non-null branches, not all records: an untagged union (t.either), its
   * branches in the union's order. A long is held as a safe-integer number there, since a bigint is
   * text and number both in wirekit's rule (schema/either.ts) and would clash with a string or a
   * double beside it. Several records stand as one tagged union, in the place of the first. A union
   * whose branches no value could tell apart (["int", "long"], two fixed types) is refused.
   */
  private either(union: AvroUnion, present: readonly UnionBranch[], path: Path): Schema {
    const records = present.filter((branch) => branch.type.type === 'record');
    const branches: Schema[] = [];
    for (const branch of present) {
      if (branch.type.type === 'record' && records.length > 1) {
        if (branch !== records[0]) continue;
        branches.push(
          this.recordUnion(records.map(({ type, raw, path }) => ({ record: type as AvroRecord, raw, path }))),
        );
        continue;
      }
      const schema = this.type(branch.raw, branch.type, branch.path);
      branches.push(
        schema.kind === 'int64' && schema.as === 'bigint'
          ? t.int64({ as: 'number', avro: schema.avro })
          : schema,
      );
    }
    try {
      return t.either(branches as [Schema, Schema]);
    } catch (error) {
      if (!isWirekitError(error) || error.code !== 'WK_SCHEMA_INVALID') throw error;
      return refuse(path, `the union [${unionText(union)}] has no wirekit form: ${error.message}`);
    }
  }

  /** One union per set of records, so a union used twice is one named type (as toAvro requires). */
  private recordUnion(branches: readonly { record: AvroRecord; raw: unknown; path: Path }[]): Schema {
    const key = branches.map(({ record }) => record.name).join('|');
    const known = this.unions.get(key);
    if (known !== undefined) return known;
    const members = branches.map(({ record, raw, path }) => this.type(raw, record, path));
    const name = branches.map(({ record }) => shortName(record.name)).join('Or');
    let union: Schema;
    if (members.every((member) => member.kind === 'object')) {
      union = t.union(name, this.tag, members as ObjectSchema[]);
    } else {
      // A record of the union is still being built (the union sits inside it): build the union on
      // first use, when every record is complete.
      let made: Schema | undefined;
      union = t.lazy(() => {
        made ??= t.union(
          name,
          this.tag,
          branches.map(({ record }) => this.built.get(record) as ObjectSchema),
        );
        return made as never;
      });
    }
    this.unions.set(key, union);
    return union;
  }
}

interface UnionBranch {
  readonly type: AvroType;
  readonly raw: unknown;
  readonly path: Path;
}

const intForms: readonly AvroIntForm[] = ['date', 'time-millis'];
const longForms: readonly AvroLongForm[] = [
  'time-micros',
  'local-timestamp-millis',
  'local-timestamp-micros',
  'local-timestamp-nanos',
];

/**
 * A fixed: bytes of its size, keeping its name, namespace and aliases so that toAvro writes the
 * same fixed; a decimal stored in it is a decimal that keeps the fixed the same way. A logical type
 * that does not fit the fixed (a uuid not of 16 bytes, a precision more than its size holds) is
 * ignored, as the specification asks.
 */
function fixedSchema(spec: Raw, parsed: AvroFixed): Schema {
  const { namespace, aliases } = namedOptions(spec, parsed);
  const name = { name: shortName(parsed.name), namespace, aliases };
  if (parsed.logicalType === 'decimal' && (parsed.precision ?? 0) <= maxDecimalPrecision(parsed.size))
    return t.decimal({
      precision: parsed.precision,
      scale: parsed.scale,
      avro: { ...name, size: parsed.size },
    });
  const logical = parsed.logicalType as keyof typeof fixedLogicalSizes | undefined;
  const logicalType =
    logical !== undefined && fixedLogicalSizes[logical] === parsed.size ? logical : undefined;
  return t.bytes({ size: parsed.size, avro: { ...name, logicalType } });
}

function namedOptions(spec: Raw, parsed: AvroRecord | AvroEnum | AvroFixed) {
  const dot = parsed.name.lastIndexOf('.');
  return {
    namespace: dot === -1 ? undefined : parsed.name.slice(0, dot),
    doc: typeof spec.doc === 'string' ? spec.doc : undefined,
    aliases: parsed.aliases.length === 0 ? undefined : [...new Set(parsed.aliases.map(shortName))],
  };
}

/** Records that share a union with another record (ignoring null), anywhere in the schema. */
function findVariants(type: AvroType, out: Set<AvroRecord>, seen: Set<AvroType>): void {
  if (seen.has(type)) return;
  seen.add(type);
  switch (type.type) {
    case 'record':
      for (const field of type.fields) findVariants(field.type, out, seen);
      return;
    case 'array':
      findVariants(type.items, out, seen);
      return;
    case 'map':
      findVariants(type.values, out, seen);
      return;
    case 'union': {
      const records = type.branches.filter((branch): branch is AvroRecord => branch.type === 'record');
      if (records.length > 1) for (const record of records) out.add(record);
      for (const branch of type.branches) findVariants(branch, out, seen);
      return;
    }
    default:
      return;
  }
}

/**
 * Avro allows one branch per type in a union, named types apart (one per full name): a reader picks
 * the branch by type, so a second one of the same type could never be chosen (["null", "null"]).
 */
function checkBranchesDiffer(union: AvroUnion, path: Path): void {
  const kinds = new Set<string>();
  union.branches.forEach((branch, i) => {
    const kind = 'name' in branch ? `named ${branch.name}` : branch.type;
    if (kinds.has(kind)) refuse([...path, i], `the union has a second ${branchName(branch)} branch.`);
    kinds.add(kind);
  });
}

function unionText(union: AvroUnion): string {
  const names = union.branches.slice(0, shownParts).map(branchName);
  const more = union.branches.length - names.length;
  return more > 0 ? `${names.join(', ')}, … ${more} more` : names.join(', ');
}

function branchName(type: AvroType): string {
  return 'name' in type ? type.name : type.type;
}
