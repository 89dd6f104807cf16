/**
 * The Confluent Schema Registry REST API as wirekit's registry server speaks it and its client reads
 * it: schema types, compatibility levels, the records a subject's versions are, and Confluent's error
 * codes. Confluent's API is the de facto standard (Karapace, Redpanda, Apicurio's compatibility
 * layer speak it too), so existing tools and serializers work against wirekit's server unchanged.
 */

/**
 * The kinds of schema the registry holds. AVRO is the default when a request names none (as in
 * Confluent's). WIREKIT is a wirekit schema's JSON form (docs/schema-json.md); the Confluent
 * clients do not know it, so wirekit's producers register the Avro or Protobuf export instead.
 */
export const schemaTypes = ['AVRO', 'PROTOBUF', 'WIREKIT'] as const;
export type SchemaType = (typeof schemaTypes)[number];

/**
 * Which existing versions a new one is checked against, and in which direction:
 * BACKWARD: the new schema reads data written with the latest one; FORWARD: the latest reads data
 * written with the new one; FULL: both. The _TRANSITIVE forms check every version, not only the
 * latest. NONE checks nothing.
 */
export const compatibilityLevels = [
  'BACKWARD',
  'BACKWARD_TRANSITIVE',
  'FORWARD',
  'FORWARD_TRANSITIVE',
  'FULL',
  'FULL_TRANSITIVE',
  'NONE',
] as const;
export type CompatibilityLevel = (typeof compatibilityLevels)[number];

/** Confluent's default, and the registry's. */
export const defaultCompatibility: CompatibilityLevel = 'BACKWARD';

/**
 * Whether the registry takes writes (Confluent's `/mode`): READWRITE, or READONLY, which refuses
 * registrations, deletions and level changes (42205) while reads go on. Confluent's IMPORT (writes
 * with ids chosen by the caller) is not held: this registry always assigns ids itself.
 */
export const registryModes = ['READWRITE', 'READONLY'] as const;
export type RegistryMode = (typeof registryModes)[number];

/** A schema that another one imports (Protobuf imports, Avro named types from another subject). */
export interface SchemaReference {
  /** The import name (a .proto file name, an Avro full name). */
  readonly name: string;
  readonly subject: string;
  readonly version: number;
}

/** A schema as it is registered or fetched by id. */
export interface SchemaDefinition {
  /** AVRO when absent. */
  readonly schemaType?: SchemaType;
  /** The schema's text: Avro JSON, a .proto file, or a wirekit schema's JSON form. */
  readonly schema: string;
  readonly references?: readonly SchemaReference[];
}

/** One version of a subject (GET /subjects/{s}/versions/{v}). */
export interface SubjectVersion extends SchemaDefinition {
  readonly subject: string;
  readonly version: number;
  readonly id: number;
}

/**
 * Confluent's error codes (the `error_code` of an error body; its first three digits are the HTTP
 * status). wirekit's client maps them to WirekitError codes (WK_REGISTRY_*).
 */
export const registryErrorCodes = {
  subjectNotFound: 40401,
  versionNotFound: 40402,
  schemaNotFound: 40403,
  subjectSoftDeleted: 40404,
  subjectNotSoftDeleted: 40405,
  /** An incompatible schema (the HTTP status alone, as Confluent answers it). */
  incompatibleSchema: 409,
  invalidSchema: 42201,
  invalidVersion: 42202,
  invalidCompatibilityLevel: 42203,
  storeError: 50001,
  operationTimeout: 50002,
} as const;

/** The media type Confluent's API answers with (clients also send and accept application/json). */
export const registryMediaType = 'application/vnd.schemaregistry.v1+json';
