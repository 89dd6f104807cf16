/**
 * The guard in front of every registered schema's parser. A schema registry takes schema texts from
 * anyone who can reach it, so a text is untrusted input: it is measured before it is parsed. Its
 * length is bounded, and so is its node count, which is what the parse and every compatibility rule
 * cost in proportion to (they are linear, or n log n, in it): JSON is counted and checked for
 * nesting depth before `JSON.parse` builds it (a few kilobytes of `[[[[` would otherwise become a
 * structure that every later walk overflows the stack on), and a .proto file's parser stops at the
 * first declaration past the bound. An object key `__proto__` is refused rather than renamed or
 * dropped, so no later copy of the parsed value can reach a prototype. Every refusal is a
 * WirekitError WK_REGISTRY_SCHEMA_INVALID.
 */
import { WirekitError } from '../../../errors/index.js';
import { depthCeiling } from '../../../util/depth-ceiling.js';

/** Limits on a registered schema's text; each has a safe default. */
export interface SchemaLimits {
  /**
   * The longest schema text, in UTF-16 code units (default 2 MiB worth, 2,097,152). Real schemas
   * are kilobytes; the largest Avro schemas in the wild are a few hundred.
   */
  readonly maxSchemaLength?: number;
  /**
   * The most nodes a schema may have (default 50,000). In a JSON text (Avro, wirekit) each JSON
   * value counts one: every object, array, string, number, `true`, `false` and `null`, keys not
   * counted (an Avro field `{"name": "a", "type": "int"}` is three). In a .proto file each
   * declaration counts one: message, enum, field, enum value, oneof, option, reserved number range
   * or name, extension range, extend block, service, rpc, import, and each value inside an option's
   * braces. The defaults let a record of 16,000 fields, a union of 4,000 small records or a
   * .proto file of 40,000 fields through, and keep the largest schema's check to tens of
   * milliseconds.
   */
  readonly maxSchemaNodes?: number;
  /**
   * How deeply JSON arrays and objects may nest in an Avro or wirekit schema text (default and
   * ceiling 1,000: room for Avro's 500 type levels and wirekit's 256 schema nodes). A .proto file's
   * messages nest at most 31 deep, as protoc allows.
   */
  readonly maxSchemaDepth?: number;
}

export const defaultSchemaLimits: Required<SchemaLimits> = {
  maxSchemaLength: 2 * 1024 * 1024,
  maxSchemaNodes: 50_000,
  maxSchemaDepth: depthCeiling,
};

export function schemaInvalid(message: string, cause?: unknown): WirekitError {
  return new WirekitError('WK_REGISTRY_SCHEMA_INVALID', message, cause === undefined ? {} : { cause });
}

/** The limits with defaults filled in and the depth held to the ceiling; bad limits are the caller's bug. */
export function resolvedLimits(limits: SchemaLimits): Required<SchemaLimits> {
  const {
    maxSchemaLength = defaultSchemaLimits.maxSchemaLength,
    maxSchemaNodes = defaultSchemaLimits.maxSchemaNodes,
    maxSchemaDepth = depthCeiling,
  } = limits;
  for (const [name, value] of Object.entries({ maxSchemaLength, maxSchemaNodes, maxSchemaDepth })) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new WirekitError(
        'WK_OPTIONS_INVALID',
        `schema limits: ${name} must be a positive integer, got ${value}.`,
      );
    }
  }
  return { maxSchemaLength, maxSchemaNodes, maxSchemaDepth: Math.min(maxSchemaDepth, depthCeiling) };
}

/** Refuses a text that is not a string or is longer than the limit, before anything reads it. */
export function checkSchemaText(text: unknown, what: string, limits: Required<SchemaLimits>): string {
  if (typeof text !== 'string') throw schemaInvalid(`${what}: the schema must be a string.`);
  if (text.length > limits.maxSchemaLength) {
    throw schemaInvalid(
      `${what}: the schema is ${text.length} characters long, over the limit of ${limits.maxSchemaLength}.`,
    );
  }
  return text;
}

/**
 * Whether a schema is within the bounds, without parsing it: for those that read a writer schema
 * with a parser of their own (the Avro codec), so that a schema from a registry costs them no more
 * than the registry let it cost. JSON texts (Avro, wirekit) are measured for length, nesting and
 * nodes; a .proto file for length (its nodes are counted by the .proto reader as it parses).
 */
export function checkSchemaBounds(
  definition: { readonly schemaType?: string | undefined; readonly schema: unknown },
  limits: SchemaLimits = {},
): void {
  const resolved = resolvedLimits(limits);
  const what = definition.schemaType ?? 'AVRO';
  const text = checkSchemaText(definition.schema, what, resolved);
  if (what === 'PROTOBUF') return;
  const { depth, nodes } = measureJson(text, resolved.maxSchemaDepth, resolved.maxSchemaNodes);
  if (depth > resolved.maxSchemaDepth) {
    throw schemaInvalid(`${what}: the JSON nests deeper than ${resolved.maxSchemaDepth} levels.`);
  }
  if (nodes > resolved.maxSchemaNodes) throw tooManyNodes(what, resolved.maxSchemaNodes, 'JSON values');
}

/** The refusal of a schema past the node limit, worded alike for every schema type. */
export function tooManyNodes(what: string, limit: number, detail: string): WirekitError {
  return schemaInvalid(
    `${what}: the schema has more than ${limit} ${detail}, past the node limit (maxSchemaNodes).`,
  );
}

/**
 * Parses JSON text that passed `checkSchemaText`, and counts its nodes: nesting deeper than the
 * limit, more values than the node limit and `__proto__` keys are refused, and so is text that is
 * not JSON.
 */
export function parseSchemaJson(
  text: string,
  what: string,
  limits: Required<SchemaLimits>,
): { json: unknown; nodes: number } {
  const { depth, nodes } = measureJson(text, limits.maxSchemaDepth, limits.maxSchemaNodes);
  if (depth > limits.maxSchemaDepth) {
    throw schemaInvalid(`${what}: the JSON nests deeper than ${limits.maxSchemaDepth} levels.`);
  }
  if (nodes > limits.maxSchemaNodes) throw tooManyNodes(what, limits.maxSchemaNodes, 'JSON values');
  try {
    // The reviver sees every key as JSON.parse made it, escaped spellings (`"\u005f_proto__"`) included.
    // It makes JSON.parse about half as fast, and a key can only be __proto__ when the text spells
    // it out or uses a \u escape (no other escape makes its letters), so most texts go without it.
    const json: unknown =
      text.includes('__proto__') || text.includes('\\u')
        ? JSON.parse(text, (key, value) => {
            if (key === '__proto__') throw schemaInvalid(`${what}: the JSON has a key "__proto__".`);
            return value;
          })
        : JSON.parse(text);
    return { json, nodes };
  } catch (error) {
    if (error instanceof WirekitError) throw error;
    throw schemaInvalid(`${what}: the schema is not JSON (${(error as Error).message}).`, error);
  }
}

const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const quote = 0x22;
const backslash = 0x5c;
const colon = 0x3a;
const comma = 0x2c;

/**
 * How deeply arrays and objects nest in JSON text, and how many values it holds (keys are not
 * values), each counted up to just past its limit (the scan stops there). Brackets inside strings
 * do not count; malformed text is JSON.parse's to refuse, so the counts only need to be right for
 * text it accepts.
 */
function measureJson(text: string, maxDepth: number, maxNodes: number): { depth: number; nodes: number } {
  // Whether each open container is an object (1) or an array (0), to tell keys from values.
  const objects = new Uint8Array(maxDepth + 2);
  let depth = 0;
  let deepest = 0;
  let nodes = 0;
  let expectValue = true;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === quote) {
      for (i++; i < text.length; i++) {
        const inside = text.charCodeAt(i);
        if (inside === backslash) i++;
        else if (inside === quote) break;
      }
      if (expectValue) nodes++;
      expectValue = false;
    } else if (char === openBrace || char === openBracket) {
      nodes++;
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > maxDepth) break;
      }
      objects[depth] = char === openBrace ? 1 : 0;
      expectValue = char === openBracket;
    } else if (char === closeBrace || char === closeBracket) {
      depth--;
      expectValue = false;
    } else if (char === colon) {
      expectValue = true;
    } else if (char === comma) {
      expectValue = depth > 0 && objects[depth] === 0;
    } else if (expectValue && char > 0x20) {
      // The first character of a number, true, false or null.
      nodes++;
      expectValue = false;
    }
    if (nodes > maxNodes) break;
  }
  return { depth: deepest, nodes };
}
