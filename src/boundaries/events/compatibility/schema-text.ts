/**
 * The guard in front of every registered schema's parser. A schema registry takes schema texts from
 * anyone who can reach it, so a text is untrusted input: it is measured before it is parsed, JSON is
 * checked for nesting depth before `JSON.parse` builds it (a few kilobytes of `[[[[` would otherwise
 * become a structure that every later walk overflows the stack on), and an object key `__proto__`
 * is refused rather than renamed or dropped, so no later copy of the parsed value can reach a
 * prototype. Every refusal is a WirekitError WK_REGISTRY_SCHEMA_INVALID.
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
   * How deeply JSON arrays and objects may nest in an Avro or wirekit schema text (default and
   * ceiling 1,000: room for Avro's 500 type levels and wirekit's 256 schema nodes). A .proto file's
   * nesting is bounded by protobufjs's own limit (32 levels of messages, as protoc).
   */
  readonly maxSchemaDepth?: number;
}

export const defaultSchemaLimits: Required<SchemaLimits> = {
  maxSchemaLength: 2 * 1024 * 1024,
  maxSchemaDepth: depthCeiling,
};

export function schemaInvalid(message: string, cause?: unknown): WirekitError {
  return new WirekitError('WK_REGISTRY_SCHEMA_INVALID', message, cause === undefined ? {} : { cause });
}

/** The limits with defaults filled in and the depth held to the ceiling; bad limits are the caller's bug. */
export function resolvedLimits(limits: SchemaLimits): Required<SchemaLimits> {
  const { maxSchemaLength = defaultSchemaLimits.maxSchemaLength, maxSchemaDepth = depthCeiling } = limits;
  for (const [name, value] of Object.entries({ maxSchemaLength, maxSchemaDepth })) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new WirekitError(
        'WK_OPTIONS_INVALID',
        `schema limits: ${name} must be a positive integer, got ${value}.`,
      );
    }
  }
  return { maxSchemaLength, maxSchemaDepth: Math.min(maxSchemaDepth, depthCeiling) };
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
 * Parses JSON text that passed `checkSchemaText`: nesting deeper than the limit and `__proto__`
 * keys are refused, and so is text that is not JSON.
 */
export function parseSchemaJson(text: string, what: string, limits: Required<SchemaLimits>): unknown {
  const depth = nestingDepth(text, limits.maxSchemaDepth);
  if (depth > limits.maxSchemaDepth) {
    throw schemaInvalid(`${what}: the JSON nests deeper than ${limits.maxSchemaDepth} levels.`);
  }
  try {
    // The reviver sees every key as JSON.parse made it, escaped spellings (`"\u005f_proto__"`) included.
    return JSON.parse(text, (key, value) => {
      if (key === '__proto__') throw schemaInvalid(`${what}: the JSON has a key "__proto__".`);
      return value;
    });
  } catch (error) {
    if (error instanceof WirekitError) throw error;
    throw schemaInvalid(`${what}: the schema is not JSON (${(error as Error).message}).`, error);
  }
}

/**
 * How deeply arrays and objects nest in JSON text, counted up to just past `limit` (the scan stops
 * there). Brackets inside strings do not count; malformed text is JSON.parse's to refuse.
 */
function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (char === 0x5d || char === 0x7d) {
      depth--;
    }
  }
  return deepest;
}
