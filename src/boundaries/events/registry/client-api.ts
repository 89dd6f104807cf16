/**
 * What producers, consumers and `wirekit inspect --registry` need from a schema registry: the
 * contract `registryClient({ url })` implements over the Confluent REST API (against wirekit's own
 * server or any Confluent-compatible one). Ids are immutable, so what is fetched by id is cached for
 * good; registrations are cached per subject and schema text.
 */
import type { CompatibilityLevel, SchemaDefinition, SubjectVersion } from './api.js';

export interface CompatibilityResult {
  readonly compatible: boolean;
  /** Why not, one line per rule broken (empty when compatible). */
  readonly messages: readonly string[];
}

export interface RegistryClient {
  /** The registry's base URL, as given. */
  readonly url: string;
  /**
   * Registers the schema under the subject (POST /subjects/{s}/versions) and resolves its id: the
   * same schema under the same subject gets the same id again. WK_REGISTRY_INCOMPATIBLE when the
   * subject's compatibility level refuses it, WK_REGISTRY_SCHEMA_INVALID when it does not parse.
   */
  register(subject: string, schema: SchemaDefinition): Promise<number>;
  /** The id and version under which this exact schema is registered (POST /subjects/{s}); WK_REGISTRY_NOT_FOUND if it is not. */
  lookup(subject: string, schema: SchemaDefinition): Promise<SubjectVersion>;
  /** The schema with this id (GET /schemas/ids/{id}); cached for good. */
  schemaById(id: number): Promise<SchemaDefinition>;
  /** A version of a subject, or its latest (GET /subjects/{s}/versions/{v|latest}). */
  version(subject: string, version: number | 'latest'): Promise<SubjectVersion>;
  subjects(): Promise<string[]>;
  versions(subject: string): Promise<number[]>;
  /** Whether the schema could be registered (POST /compatibility/subjects/{s}/versions/{v|latest}?verbose=true). */
  testCompatibility(
    subject: string,
    schema: SchemaDefinition,
    version?: number | 'latest',
  ): Promise<CompatibilityResult>;
  /** The subject's level, or the global one (GET /config[/{s}]?defaultToGlobal=true). */
  compatibility(subject?: string): Promise<CompatibilityLevel>;
  setCompatibility(level: CompatibilityLevel, subject?: string): Promise<void>;
}
