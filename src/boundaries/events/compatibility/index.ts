/**
 * PLACEHOLDER (the "compat" helper replaces this file's bodies; the signatures are the contract the
 * registry server codes against): parsing a registered schema of each type, and checking a candidate
 * against existing versions under a compatibility level.
 */
import type { CompatibilityLevel, SchemaDefinition, SchemaType } from '../registry/api.js';
import type { CompatibilityResult } from '../registry/client-api.js';

/** A registered schema, parsed and checked. */
export interface ParsedSchema {
  readonly schemaType: SchemaType;
  /** The text as given. */
  readonly text: string;
  /**
   * The form two registrations are compared in ("same schema → same id"): equal for texts that
   * differ only in insignificant whitespace (and, for Avro, JSON key order).
   */
  readonly canonical: string;
}

/** Parses a schema of its type; WK_REGISTRY_SCHEMA_INVALID when it does not parse or its type is unknown. */
export function parseRegisteredSchema(definition: SchemaDefinition): ParsedSchema {
  const schemaType = definition.schemaType ?? 'AVRO';
  return { schemaType, text: definition.schema, canonical: definition.schema.trim() };
}

/**
 * Checks `candidate` against the existing versions of a subject (oldest first) under `level`:
 * BACKWARD and FORWARD and FULL against the newest, the _TRANSITIVE forms against all, NONE never
 * fails. A candidate of another schema type than a version it is checked against is incompatible.
 */
export function checkCompatibility(
  _candidate: ParsedSchema,
  _existing: readonly ParsedSchema[],
  _level: CompatibilityLevel,
): CompatibilityResult {
  return { compatible: true, messages: [] };
}
