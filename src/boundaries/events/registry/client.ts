/**
 * `registryClient({ url })`: the RegistryClient contract over Confluent's REST API, so producers,
 * consumers and `wirekit inspect --registry` work against wirekit's registry server or any
 * Confluent-compatible one (Confluent's, Karapace, Redpanda). Node's own fetch, no HTTP library.
 *
 * What never changes is asked once: a schema by id is cached for good (bounded, oldest out), and
 * so is the id or version of a (subject, type, schema text, references) registered or looked up;
 * concurrent calls for one key share one request; failures are not cached. Every answer is checked
 * for the shape Confluent documents before it is believed: a server that answers `{"id":"x"}` or an
 * HTML page is a WK_REGISTRY_UNAVAILABLE error naming what was wrong, never a crash or a NaN id.
 *
 * Credentials in the URL (`https://user:pass@host`) become a Basic Authorization header and are
 * removed from the URL the client keeps and shows (`client.url`), so they never reach a message.
 */

import { WirekitError } from '../../../errors/index.js';
import {
  type CompatibilityLevel,
  compatibilityLevels,
  type SchemaDefinition,
  type SchemaReference,
  type SchemaType,
  type SubjectVersion,
  schemaTypes,
} from './api.js';
import type { CompatibilityResult, RegistryClient } from './client-api.js';
import { OnceCache } from './client-cache.js';
import { RegistryClientError, registryHttp } from './client-http.js';
import { basicAuthorization, parseBaseUrl } from './client-url.js';

export { RegistryClientError, type RegistryErrorDetails } from './client-http.js';

export interface RegistryClientOptions {
  /** The registry's base URL (http or https; a path prefix is kept; `user:pass@` becomes Basic auth). */
  readonly url: string;
  /** How long one attempt may take, headers and body (default 10 s). */
  readonly timeoutMs?: number;
  /**
   * Basic auth credentials, as Confluent's `basic.auth.user.info` gives them: kept out of the URL
   * (and so out of logs that print it). They win over `user:pass@` in the URL.
   */
  readonly basicAuth?: { readonly username: string; readonly password: string };
  /** Sent with every request (an Authorization header here wins over any credentials). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch to use (default the global one): a test's, or one with its own dispatcher. */
  readonly fetch?: typeof fetch;
  /** The largest answer read (default 16 MiB); a larger one is WK_REGISTRY_UNAVAILABLE. */
  readonly maxResponseBytes?: number;
  /** How many schemas by id, and how many registrations and lookups, are kept (default 1,000 each). */
  readonly cacheSize?: number;
  /** How many times a connection failure, timeout or 5xx is retried (default 3); 4xx never. */
  readonly retries?: number;
  /** The wait before the first retry (default 100 ms), doubling for each next one. */
  readonly retryDelayMs?: number;
  /** The longest wait between retries (default 2 s). */
  readonly maxRetryDelayMs?: number;
}

/** A subject and version a schema id is registered under (GET /schemas/ids/{id}/versions). */
export interface SubjectVersionRef {
  readonly subject: string;
  readonly version: number;
}

/** What `registryClient` returns: the contract, and the lookups `wirekit inspect` shows besides. */
export interface WirekitRegistryClient extends RegistryClient {
  /** Every subject and version the schema with this id is registered under (not cached). */
  subjectVersionsById(id: number): Promise<SubjectVersionRef[]>;
}

const registryClientDefaults = {
  timeoutMs: 10_000,
  maxResponseBytes: 16 * 1024 * 1024,
  cacheSize: 1000,
  retries: 3,
  retryDelayMs: 100,
  maxRetryDelayMs: 2000,
} as const;

/** The largest id a Confluent frame can carry (4 bytes, unsigned). */
const maxSchemaId = 0xffffffff;

export function registryClient(options: RegistryClientOptions): WirekitRegistryClient {
  const parsed = parseBaseUrl(options.url);
  const { baseUrl } = parsed;
  const authorization =
    options.basicAuth === undefined ? parsed.authorization : basicAuthorization(options.basicAuth);
  const settings = { ...registryClientDefaults, ...definedOnly(options) };
  checkCount('timeoutMs', settings.timeoutMs, 1);
  checkCount('maxResponseBytes', settings.maxResponseBytes, 1);
  checkCount('cacheSize', settings.cacheSize, 0);
  checkCount('retries', settings.retries, 0);
  checkCount('retryDelayMs', settings.retryDelayMs, 0);
  checkCount('maxRetryDelayMs', settings.maxRetryDelayMs, 0);
  const request = registryHttp({
    baseUrl,
    headers: { ...(authorization === undefined ? {} : { Authorization: authorization }), ...options.headers },
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: settings.timeoutMs,
    maxResponseBytes: settings.maxResponseBytes,
    retries: settings.retries,
    retryDelayMs: settings.retryDelayMs,
    maxRetryDelayMs: settings.maxRetryDelayMs,
  });
  const byId = new OnceCache<SchemaDefinition>(settings.cacheSize);
  const registered = new OnceCache<number>(settings.cacheSize);
  const lookedUp = new OnceCache<SubjectVersion>(settings.cacheSize);
  // Each answer is checked against the request it answers, so a malformed one names it.
  const read = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => ({
    json: await request(method, path, body),
    at: { method, path },
  });

  return {
    url: baseUrl,

    async register(subject, schema) {
      const path = `/subjects/${subjectPath(subject)}/versions`;
      return registered.get(definitionKey(subject, schema), async () => {
        const { json, at } = await read('POST', path, requestBody(schema));
        return field(json, 'id', isSchemaId, 'schema id', at);
      });
    },

    async lookup(subject, schema) {
      const path = `/subjects/${subjectPath(subject)}`;
      return lookedUp.get(definitionKey(subject, schema), async () =>
        subjectVersionOf(await read('POST', path, requestBody(schema))),
      );
    },

    async schemaById(id) {
      checkSchemaId(id);
      const path = `/schemas/ids/${id}`;
      return byId.get(String(id), async () => definitionOf(await read('GET', path)));
    },

    async version(subject, version) {
      const path = `/subjects/${subjectPath(subject)}/versions/${versionPath(version)}`;
      return subjectVersionOf(await read('GET', path));
    },

    async subjects() {
      const path = '/subjects';
      return listOf(await read('GET', path), (item) => typeof item === 'string', 'subject names') as string[];
    },

    async versions(subject) {
      const path = `/subjects/${subjectPath(subject)}/versions`;
      return listOf(await read('GET', path), isVersion, 'version numbers') as number[];
    },

    async testCompatibility(subject, schema, version = 'latest') {
      const path = `/compatibility/subjects/${subjectPath(subject)}/versions/${versionPath(version)}?verbose=true`;
      let answer: Answer;
      try {
        answer = await read('POST', path, requestBody(schema));
      } catch (error) {
        // A subject with no versions yet takes any schema; registries that say so with 40401
        // (Confluent before 7) and those answering is_compatible: true agree on what it means.
        if (version === 'latest' && isSubjectMissing(error)) return { compatible: true, messages: [] };
        throw error;
      }
      return compatibilityOf(answer);
    },

    async compatibility(subject) {
      const path = subject === undefined ? '/config' : `/config/${subjectPath(subject)}?defaultToGlobal=true`;
      const { json, at } = await read('GET', path);
      const level = isObject(json) ? (json.compatibilityLevel ?? json.compatibility) : undefined;
      if (!isLevel(level)) throw malformed(at, 'compatibilityLevel', json);
      return level;
    },

    async setCompatibility(level, subject) {
      if (!isLevel(level)) {
        throw localRefusal(
          `${JSON.stringify(level)} is not a compatibility level: one of ${compatibilityLevels.join(', ')}.`,
        );
      }
      const path = subject === undefined ? '/config' : `/config/${subjectPath(subject)}`;
      const { json, at } = await read('PUT', path, { compatibility: level });
      if (!isObject(json)) throw malformed(at, 'object', json);
    },

    async subjectVersionsById(id) {
      checkSchemaId(id);
      const path = `/schemas/ids/${id}/versions`;
      const list = listOf(await read('GET', path), isSubjectVersionRef, 'subject-version pairs');
      return (list as SubjectVersionRef[]).map(({ subject, version }) => Object.freeze({ subject, version }));
    },
  };
}

function definedOnly(options: RegistryClientOptions): Partial<typeof registryClientDefaults> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(registryClientDefaults) as (keyof typeof registryClientDefaults)[]) {
    const value = options[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function checkCount(name: string, value: number, min: number): void {
  if (!Number.isFinite(value) || !Number.isInteger(value) || value < min) {
    throw new WirekitError(
      'WK_REGISTRY_REQUEST',
      `registryClient: ${name} must be an integer of at least ${min}, got ${value}.`,
    );
  }
}

function localRefusal(message: string): RegistryClientError {
  return new RegistryClientError('WK_REGISTRY_REQUEST', message, { method: '', path: '', attempts: 0 });
}

function subjectPath(subject: string): string {
  if (typeof subject !== 'string' || subject === '') throw localRefusal('a subject is a non-empty string.');
  return encodeURIComponent(subject);
}

function versionPath(version: number | 'latest'): string {
  if (version === 'latest' || isVersion(version)) return String(version);
  throw localRefusal(`a version is a positive integer or 'latest', not ${JSON.stringify(version)}.`);
}

function checkSchemaId(id: number): void {
  if (!isSchemaId(id))
    throw localRefusal(`a schema id is an integer from 0 to ${maxSchemaId}, not ${String(id)}.`);
}

/** The cache key of a definition under a subject: the same text with other references is another schema. */
function definitionKey(subject: string, schema: SchemaDefinition): string {
  return JSON.stringify([subject, schema.schemaType ?? 'AVRO', schema.schema, schema.references ?? []]);
}

/** Confluent's request body: schemaType and references only where they say something (older registries know neither). */
function requestBody(schema: SchemaDefinition): Record<string, unknown> {
  if (typeof schema?.schema !== 'string')
    throw localRefusal('a schema definition needs its text in `schema`.');
  const type = schema.schemaType ?? 'AVRO';
  if (!(schemaTypes as readonly string[]).includes(type)) {
    throw localRefusal(`schemaType ${JSON.stringify(type)} is not one of ${schemaTypes.join(', ')}.`);
  }
  return {
    schema: schema.schema,
    ...(type === 'AVRO' ? {} : { schemaType: type }),
    ...(schema.references === undefined || schema.references.length === 0
      ? {}
      : { references: schema.references.map(({ name, subject, version }) => ({ name, subject, version })) }),
  };
}

// --- The shapes of answers ---

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isSchemaId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= maxSchemaId;
}

function isVersion(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 0x7fffffff;
}

function isLevel(value: unknown): value is CompatibilityLevel {
  return typeof value === 'string' && (compatibilityLevels as readonly string[]).includes(value);
}

function isSubjectVersionRef(value: unknown): boolean {
  return isObject(value) && typeof value.subject === 'string' && isVersion(value.version);
}

function isSubjectMissing(error: unknown): boolean {
  return error instanceof RegistryClientError && error.details.errorCode === 40401;
}

/** The request an answer came from. */
interface At {
  readonly method: string;
  readonly path: string;
}

interface Answer {
  readonly json: unknown;
  readonly at: At;
}

/** An answer of the wrong shape: the registry is not serving what a registry serves. Not retried. */
function malformed(at: At, expected: string, json: unknown): RegistryClientError {
  const shown = JSON.stringify(json) ?? String(json);
  return new RegistryClientError(
    'WK_REGISTRY_UNAVAILABLE',
    `schema registry ${at.method} ${at.path}: the answer has no ${expected} (${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown}): is this a schema registry?`,
    { ...at, status: 200, attempts: 1 },
  );
}

function field<T>(
  json: unknown,
  name: string,
  check: (value: unknown) => value is T,
  what: string,
  at: At,
): T {
  const value = isObject(json) ? json[name] : undefined;
  if (!check(value)) throw malformed(at, `${what} in "${name}"`, json);
  return value;
}

function listOf({ json, at }: Answer, check: (item: unknown) => boolean, what: string): unknown[] {
  if (!Array.isArray(json) || !json.every(check)) throw malformed(at, `list of ${what}`, json);
  return json;
}

function schemaTypeOf(json: Record<string, unknown>, at: At): SchemaType {
  const type = json.schemaType;
  if (type === undefined || type === null) return 'AVRO';
  if (typeof type !== 'string') throw malformed(at, 'schemaType string', json);
  if (!(schemaTypes as readonly string[]).includes(type)) {
    // A real registry may hold JSON Schema: not malformed, but not a type wirekit reads.
    throw new RegistryClientError(
      'WK_REGISTRY_SCHEMA_INVALID',
      `schema registry ${at.method} ${at.path}: the schema is of type ${JSON.stringify(type)}; wirekit reads ${schemaTypes.join(', ')}.`,
      { ...at, status: 200, attempts: 1 },
    );
  }
  return type as SchemaType;
}

function referencesOf(json: Record<string, unknown>, at: At): readonly SchemaReference[] | undefined {
  const list = json.references;
  if (list === undefined || list === null) return undefined;
  const valid =
    Array.isArray(list) &&
    list.every(
      (item) =>
        isObject(item) &&
        typeof item.name === 'string' &&
        typeof item.subject === 'string' &&
        isVersion(item.version),
    );
  if (!valid) throw malformed(at, 'list of references (name, subject, version)', json);
  if (list.length === 0) return undefined;
  return Object.freeze(
    (list as SchemaReference[]).map(({ name, subject, version }) =>
      Object.freeze({ name, subject, version }),
    ),
  );
}

function definitionOf({ json, at }: Answer): SchemaDefinition {
  const schema = field(json, 'schema', isString, 'schema text', at);
  const object = json as Record<string, unknown>;
  const references = referencesOf(object, at);
  return Object.freeze({
    schemaType: schemaTypeOf(object, at),
    schema,
    ...(references === undefined ? {} : { references }),
  });
}

function subjectVersionOf(answer: Answer): SubjectVersion {
  const definition = definitionOf(answer);
  const { json, at } = answer;
  const subject = field(json, 'subject', isString, 'subject', at);
  const version = field(json, 'version', isVersion, 'version number', at);
  const id = field(json, 'id', isSchemaId, 'schema id', at);
  return Object.freeze({ subject, version, id, ...definition });
}

function compatibilityOf({ json, at }: Answer): CompatibilityResult {
  const compatible = field(
    json,
    'is_compatible',
    (value): value is boolean => typeof value === 'boolean',
    'boolean',
    at,
  );
  const messages = (json as Record<string, unknown>).messages;
  if (
    messages !== undefined &&
    messages !== null &&
    !(Array.isArray(messages) && messages.every((m) => typeof m === 'string'))
  ) {
    throw malformed(at, 'list of messages', json);
  }
  return Object.freeze({
    compatible,
    messages: Object.freeze([...((messages as string[] | undefined) ?? [])]),
  });
}
