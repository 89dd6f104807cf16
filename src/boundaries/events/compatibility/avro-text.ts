/**
 * A registered Avro schema: its text parsed by the codec's own reader (`parseAvroSchema`), the
 * checks that reader leaves to the registry, and the canonical form two registrations are compared
 * in. The codec's reader is lenient where an Object Container File from another implementation
 * needs it to be; a registry is where a schema enters the system, so it also refuses what would
 * only fail later, at read time: a field default that is not a value of the field's type (Avro
 * 1.12's rule: a union's default may match any branch), and an enum default that is not a symbol.
 *
 * Canonical form (same schema → same id): the JSON re-serialized without whitespace, every object's
 * keys sorted, and a type written as `{"type": "int"}` (nothing else in the object) shortened to
 * `"int"`, at schema positions only (never inside a default value). Confluent compares its own
 * re-serialization (Avro Java's `toString`), which also ignores whitespace, key order and that
 * shorthand; unlike Parsing Canonical Form, both keep docs, aliases, defaults and namespaces as
 * written, so texts differing in those get different ids.
 */
import {
  type AvroNamedTypes,
  type AvroType,
  primitives as avroPrimitives,
  parseAvroSchema,
} from '../../../codecs/avro/avro-schema.js';
import { WirekitError } from '../../../errors/index.js';
import type { JsonValue } from '../../../schema/index.js';
import { BudgetSpent, CheckBudget } from './check-budget.js';
import { parseSchemaJson, type SchemaLimits, schemaInvalid } from './schema-text.js';

export interface RegisteredAvro {
  readonly type: AvroType;
  readonly canonical: string;
  /** The text's node count (JSON values), which bounds what checking it may cost. */
  readonly nodes: number;
}

/** Parses and checks a registered Avro schema; WK_REGISTRY_SCHEMA_INVALID when it is not one. */
export function parseRegisteredAvro(
  text: string,
  limits: Required<SchemaLimits>,
  referenced: readonly string[] = [],
): RegisteredAvro {
  const { json: parsed, nodes } = parseSchemaJson(text, 'Avro', limits);
  const json = parsed as JsonValue;
  let type: AvroType;
  try {
    // Referenced schemas first, into one map of named types the schema may then name.
    const named: AvroNamedTypes = new Map();
    for (const [index, other] of referenced.entries()) {
      try {
        parseAvroSchema(parseSchemaJson(other, 'Avro', limits).json as JsonValue, named);
      } catch (error) {
        if (!(error instanceof WirekitError)) throw error;
        throw schemaInvalid(`Avro schema: its reference ${index + 1}: ${error.message}`, error);
      }
    }
    // A bare name at the root goes through the reader as `{"type": name}`, which resolves it (or
    // says which name is unknown) instead of trying to parse the name as JSON text.
    type = parseAvroSchema(typeof json === 'string' ? { type: json } : json, named);
  } catch (error) {
    // The registry's reply has only a message: it names the schema type the codec's error carries.
    if (error instanceof WirekitError) throw schemaInvalid(`Avro schema: ${error.message}`, error);
    throw error;
  }
  const budget = new CheckBudget(nodes);
  try {
    new DefaultsChecker(budget).check(type);
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
    throw schemaInvalid(
      `Avro schema: checking its defaults against their types takes more than ${error.maxSteps} steps (a default tried against many union branches).`,
    );
  }
  return { type, canonical: canonicalSchema(json), nodes };
}

/**
 * What the codec's reader does not check: every field default and enum default, and unions
 * without repeated branches; each named type is visited once. Checking a default follows the value,
 * and a value in a union is tried against each branch, so a hostile schema (a long array default
 * of a union of thousands of records) could cost the product of the two: the check spends one step
 * per type tried and stops past the budget its schema's size allows (check-budget.ts).
 */
class DefaultsChecker {
  private readonly seen = new Set<AvroType>();
  /** Each enum's symbols, as a Set, made on first use. */
  private readonly symbolSets = new Map<AvroType, Set<string>>();

  constructor(private readonly budget: CheckBudget) {}

  check(type: AvroType): void {
    switch (type.type) {
      case 'record':
        if (this.seen.has(type)) return;
        this.seen.add(type);
        for (const field of type.fields) {
          if (field.hasDefault === true && !this.fits(field.type, field.default ?? null)) {
            throw schemaInvalid(
              `Avro schema: the default of ${type.name}.${field.name}, ${show(field.default ?? null)}, is not a value of its type.`,
            );
          }
          this.check(field.type);
        }
        return;
      case 'enum':
        if (type.default !== undefined && !this.symbols(type).has(type.default)) {
          throw schemaInvalid(
            `Avro schema: the default of enum ${type.name}, ${show(type.default)}, is not one of its symbols.`,
          );
        }
        return;
      case 'array':
        this.check(type.items);
        return;
      case 'map':
        this.check(type.values);
        return;
      case 'union': {
        // The spec allows one branch per type, named types apart (one per name); resolution picks a
        // branch by type, so a second one could never be chosen.
        const kinds = new Set<string>();
        for (const branch of type.branches) {
          const kind = 'name' in branch ? `${branch.type} ${branch.name}` : branch.type;
          if (kinds.has(kind)) throw schemaInvalid(`Avro schema: a union has two branches of type ${kind}.`);
          kinds.add(kind);
        }
        for (const branch of type.branches) this.check(branch);
        return;
      }
      default:
        return;
    }
  }

  private symbols(type: AvroType & { readonly symbols: readonly string[] }): Set<string> {
    let symbols = this.symbolSets.get(type);
    if (symbols === undefined) {
      symbols = new Set(type.symbols);
      this.symbolSets.set(type, symbols);
    }
    return symbols;
  }

  /**
   * Whether a JSON default is a value of `type` (Avro spec, "Complex Types: Records": bytes and fixed
   * as strings of code points 0-255, a record as an object whose missing fields have defaults).
   * Recursion follows the value, which passed the JSON depth limit, so a recursive type terminates.
   */
  private fits(type: AvroType, value: JsonValue): boolean {
    this.budget.spend();
    switch (type.type) {
      case 'null':
        return value === null;
      case 'boolean':
        return typeof value === 'boolean';
      case 'int':
        return Number.isInteger(value) && (value as number) >= int32.min && (value as number) <= int32.max;
      case 'long':
        return Number.isInteger(value);
      case 'float':
      case 'double':
        return typeof value === 'number';
      case 'string':
        return typeof value === 'string';
      case 'bytes':
        return typeof value === 'string' && isByteString(value);
      case 'fixed':
        return typeof value === 'string' && isByteString(value) && value.length === type.size;
      case 'enum':
        return typeof value === 'string' && this.symbols(type).has(value);
      case 'array':
        return Array.isArray(value) && value.every((item) => this.fits(type.items, item));
      case 'map':
        return isObject(value) && Object.values(value).every((item) => this.fits(type.values, item));
      case 'record':
        this.budget.spend(type.fields.length);
        return (
          isObject(value) &&
          type.fields.every((field) =>
            Object.hasOwn(value, field.name)
              ? this.fits(field.type, value[field.name] as JsonValue)
              : field.hasDefault === true,
          )
        );
      case 'union':
        return type.branches.some((branch) => this.fits(branch, value));
    }
  }
}

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isByteString(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

/** The canonical text of a schema position: a type name, a union, or a type's object. */
function canonicalSchema(json: JsonValue): string {
  if (Array.isArray(json)) return `[${json.map(canonicalSchema).join(',')}]`;
  if (!isObject(json)) return JSON.stringify(json);
  const keys = Object.keys(json).sort();
  if (keys.length === 1 && typeof json.type === 'string' && avroPrimitives.has(json.type)) {
    return JSON.stringify(json.type);
  }
  const parts = keys.map((key) => {
    const value = json[key] as JsonValue;
    let text: string;
    if (key === 'type' || key === 'items' || key === 'values') text = canonicalSchema(value);
    else if (key === 'fields' && Array.isArray(value)) text = `[${value.map(canonicalField).join(',')}]`;
    else text = canonicalValue(value);
    return `${JSON.stringify(key)}:${text}`;
  });
  return `{${parts.join(',')}}`;
}

function canonicalField(field: JsonValue): string {
  if (!isObject(field)) return canonicalValue(field);
  const parts = Object.keys(field)
    .sort()
    .map((key) => {
      const value = field[key] as JsonValue;
      return `${JSON.stringify(key)}:${key === 'type' ? canonicalSchema(value) : canonicalValue(value)}`;
    });
  return `{${parts.join(',')}}`;
}

/** Any other JSON (defaults, docs, custom properties): sorted keys, no whitespace. */
function canonicalValue(json: JsonValue): string {
  if (Array.isArray(json)) return `[${json.map(canonicalValue).join(',')}]`;
  if (!isObject(json)) return JSON.stringify(json);
  const parts = Object.keys(json)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalValue(json[key] as JsonValue)}`);
  return `{${parts.join(',')}}`;
}

function show(value: JsonValue): string {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
