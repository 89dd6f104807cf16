/**
 * The schema registry itself, without HTTP: what Confluent's REST API does, as calls. The server
 * (server.ts) maps routes onto these; tests and embedders can call them directly.
 *
 *   const registry = await createSchemaRegistry({ store: fileStore('schemas.log') });
 *   const { id } = await registry.register('orders-value', { schema: avsc });
 *
 * One writer: on a store that several registries share (the Kafka store), only the one the store
 * elects writes, once it applied what the previous leader wrote, and the records the leader appends
 * are applied here as they arrive. Mutations run one at a time through a queue, each against the state every earlier
 * one left, so twenty concurrent registrations of one schema get one id and twenty compatible new
 * schemas get consecutive versions. A mutation's record is appended to the store first and applied
 * to the state only once the store took it: what a reader sees is durable, and a store failure
 * (50001) changes nothing. Reads are answered from the state at once, never queued behind writes.
 *
 * Schemas are parsed and checked in a worker thread (schema-work.ts), never on the thread that
 * answers requests, and only what a check needs is parsed: the registry keeps each schema's text
 * and a 64-character identity, and the worker a bounded cache of parsed schemas (parsed-cache.ts).
 * What one schema may cost is bounded by `schemaLimits` (length, nodes, depth), the same bounds the
 * event codec and `wirekit inspect --registry` read writer schemas with.
 */
import { isWirekitError } from '../../../errors/index.js';
import type { ReferencedSchema } from '../compatibility/index.js';
import { checkSchemaText, resolvedLimits, type SchemaLimits } from '../compatibility/schema-text.js';
import {
  type CompatibilityLevel,
  defaultCompatibility,
  type SchemaDefinition,
  type SchemaReference,
  type SchemaType,
  type SubjectVersion,
  schemaTypes,
} from './api.js';
import type { CompatibilityResult } from './client-api.js';
import type { ParsedCacheLimits } from './parsed-cache.js';
import { StoreCorruptError } from './record-json.js';
import { isRegistryError, refusals } from './registry-error.js';
import { type IncludeDeleted, type ReadCalls, registryReads } from './registry-reads.js';
import { registrySettings, type SettingsCalls } from './registry-settings.js';
import { LogConflict, RegistryState, type VersionEntry } from './registry-state.js';
import { referencedSchemas } from './schema-references.js';
import { SchemaWork } from './schema-work.js';
import type { RegistryRecord, RegistryStore } from './store.js';

export interface SchemaRegistryOptions {
  readonly store: RegistryStore;
  /** The level when neither the subject nor the registry sets one (Confluent's BACKWARD). */
  readonly defaultCompatibility?: CompatibilityLevel;
  /**
   * Bounds on one schema: its length, node count and JSON nesting (compatibility/schema-text.ts;
   * defaults 2 MiB, 50,000 nodes, 1,000 levels). A schema past them is refused (42201).
   */
  readonly schemaLimits?: SchemaLimits;
  /** How many parsed schemas are kept between checks (defaults 1,000 schemas, 4 MiB of their text). */
  readonly parsedCache?: ParsedCacheLimits;
}

/** How a reader asks for a schema's text (Confluent's `?format=`); see SchemaRegistry.formatted. */
export type SchemaFormat = 'default' | 'serialized' | 'resolved';

/** The registry's calls; reads are registry-reads.ts's, levels and modes registry-settings.ts's. */
export interface SchemaRegistry extends SettingsCalls, ReadCalls {
  /** Registers the schema under the subject (POST /subjects/{s}/versions): its id and version. */
  register(subject: string, definition: SchemaDefinition): Promise<{ id: number; version: number }>;
  /** The version under which this schema is registered (POST /subjects/{s}). */
  lookup(subject: string, definition: SchemaDefinition, options?: IncludeDeleted): Promise<SubjectVersion>;
  /**
   * A stored schema's text as a reader asks for it (Confluent's `?format=`): `serialized` gives a
   * Protobuf schema as a base64 FileDescriptorProto (the one registered, if it came so), `resolved`
   * an Avro schema with the named types of its references written in (one self-contained schema);
   * otherwise a Protobuf schema registered as a descriptor is given as `.proto` text, and anything
   * else as it was registered.
   */
  formatted(definition: SchemaDefinition, format?: SchemaFormat): Promise<string>;
  /**
   * Whether the schema could be registered: against one version (or the latest) when `version` is
   * given, else against every version the subject's level checks. A subject without versions is
   * compatible with anything.
   */
  testCompatibility(
    subject: string,
    definition: SchemaDefinition,
    version?: number | 'latest',
  ): Promise<CompatibilityResult>;
  /** Soft-deletes every version (or, `permanent`, purges them after a soft delete): the versions. */
  deleteSubject(subject: string, options?: { permanent?: boolean }): Promise<number[]>;
  deleteVersion(
    subject: string,
    version: number | 'latest',
    options?: { permanent?: boolean },
  ): Promise<number>;
  readonly schemaTypes: readonly SchemaType[];
  /** Waits for the mutations under way, then closes the store. */
  close(): Promise<void>;
}

/** The largest id and version: Confluent's API carries them as Java ints (and a frame's id in 4 bytes). */
const maxInt32 = 2 ** 31 - 1;

/** A definition with its type and references filled in, and its identity. */
interface Identified {
  readonly definition: Required<Pick<SchemaDefinition, 'schemaType' | 'schema' | 'references'>>;
  readonly identity: string;
}

/** Confluent refuses subject names with control characters (and there is no empty subject). */
function checkSubject(subject: string): void {
  if (subject === '') throw refusals.invalidSubject('the subject is empty');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(subject)) {
    throw refusals.invalidSubject('the subject has a control character');
  }
}

export async function createSchemaRegistry(options: SchemaRegistryOptions): Promise<SchemaRegistry> {
  const { store } = options;
  const fallbackLevel = options.defaultCompatibility ?? defaultCompatibility;
  const limits = resolvedLimits(options.schemaLimits ?? {});
  const work = new SchemaWork({
    limits,
    ...(options.parsedCache === undefined ? {} : { cache: options.parsedCache }),
  });
  const state = new RegistryState();

  const resolveReferences = (references: readonly SchemaReference[]) => referencedSchemas(state, references);

  /** A definition checked and identified; 42201 for an unknown type or a schema that does not parse. */
  const identified = async (definition: SchemaDefinition): Promise<Identified> => {
    const schemaType = definition.schemaType ?? 'AVRO';
    if (!schemaTypes.includes(schemaType)) {
      throw refusals.invalidSchema(
        `unknown schema type ${String(schemaType)} (known: ${schemaTypes.join(', ')})`,
      );
    }
    if (typeof definition.schema !== 'string' || definition.schema.trim() === '') {
      throw refusals.invalidSchema('the schema is empty');
    }
    try {
      // Measured here, so that an oversized text is not handed to the worker at all.
      checkSchemaText(definition.schema, schemaType, limits);
    } catch (error) {
      if (isWirekitError(error, 'WK_REGISTRY_SCHEMA_INVALID'))
        throw refusals.invalidSchema(error.message, error);
      throw error;
    }
    const normalized = { schemaType, schema: definition.schema, references: definition.references ?? [] };
    const referenced = resolveReferences(normalized.references);
    const answer = await work.identify({ ...normalized, referenced });
    if (!answer.ok) throw refusals.invalidSchema(answer.message);
    return { definition: normalized, identity: answer.identity };
  };

  try {
    const records = await store.load();
    for (const [index, record] of records.entries()) {
      let identity: string | undefined;
      if (state.needsIdentity(record)) {
        // A stored schema that today's rules no longer parse (or whose reference is gone) keeps its text's identity.
        let referenced: ReferencedSchema[] | undefined;
        try {
          referenced = resolveReferences(record.references);
        } catch {
          referenced = undefined;
        }
        const answer = referenced === undefined ? undefined : await work.identify({ ...record, referenced });
        if (answer?.ok === true) identity = answer.identity;
      }
      try {
        state.apply(record, identity);
      } catch (error) {
        if (!(error instanceof LogConflict)) throw error;
        await store.close().catch(() => {});
        const location = store.locationOf?.(index) ?? `record ${index + 1} of the log`;
        throw new StoreCorruptError(location, error.message, { cause: error });
      }
    }
  } catch (error) {
    work.close();
    throw error;
  }
  // What other registries sharing the store write from now on is applied as it arrives. A record
  // that contradicts the state (two writers at once) is left out: the next start names it.
  store.shared?.follow(async (record) => {
    const answer = state.needsIdentity(record)
      ? await work.identify(record).catch(() => undefined)
      : undefined;
    try {
      state.apply(record, answer?.ok === true ? answer.identity : undefined);
    } catch (error) {
      if (!(error instanceof LogConflict)) throw error;
    }
  });

  let tail: Promise<unknown> = Promise.resolve();
  let closed = false;
  /** Runs mutations one at a time, each after the one before settled. */
  const serialised = <T>(work: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(refusals.storeError(new Error('the registry is closed')));
    // On a shared store, only the leader writes, once it has applied what the previous one wrote.
    const run = tail.then(async () => {
      await store.shared?.leading();
      return work();
    });
    tail = run.catch(() => undefined);
    return run;
  };
  /** Appends a record and, once the store has it, applies it (with the schema's identity, for a new schema). */
  const commit = async (record: RegistryRecord, identity?: string): Promise<void> => {
    try {
      await store.append(record);
    } catch (cause) {
      // A shared store's refusal (this registry no longer leads) is the client's answer as it is.
      if (isRegistryError(cause)) throw cause;
      throw refusals.storeError(cause);
    }
    state.apply(record, identity);
  };

  /**
   * The candidate checked against the versions the level compares it with (the newest alone unless
   * transitive), in the worker. A stored version that today's rules no longer parse (the log is
   * older than a tightened rule) cannot be shown compatible: it counts as a broken rule.
   */
  const compare = async (
    candidate: Identified,
    against: readonly VersionEntry[],
    level: CompatibilityLevel,
  ): Promise<CompatibilityResult> => {
    const checked = level.endsWith('_TRANSITIVE') ? against : against.slice(-1);
    if (level === 'NONE' || checked.length === 0) return { compatible: true, messages: [] };
    const existing = checked.map((entry) => {
      const { identity, id, schemaType, schema, references } = storedById(entry.id);
      const referenced = resolveReferences(references);
      return { identity, id, definition: { schemaType, schema, references, referenced } };
    });
    return work.check(
      candidate,
      existing,
      level,
      checked.map((entry) => entry.version),
    );
  };

  const reads = registryReads(state);
  const { describe, entryOf, storedById, referrersOf } = reads;
  const settings = registrySettings({ state, fallbackLevel, serialised, commit, checkSubject });
  const { writable } = settings;

  return {
    schemaTypes,
    ...settings.calls,
    ...reads.calls,

    async register(subject, definition) {
      checkSubject(subject);
      // Identified in the queue too, so that close() waits for a registration from its call on.
      return serialised(async () => {
        writable(subject);
        const candidate = await identified(definition);
        const { identity } = candidate;
        const { references } = candidate.definition;
        const all = state.versionsOf(subject, true);
        const live = all.filter((entry) => !entry.deleted);
        const same = live.find((entry) => state.schemas.get(entry.id)?.identity === identity);
        if (same !== undefined) return { id: same.id, version: same.version };
        const level = state.levelOf(subject, fallbackLevel);
        const result = await compare(candidate, live, level);
        if (!result.compatible) throw refusals.incompatible(subject, result.messages);
        const id = state.idByIdentity.get(identity) ?? state.highestId + 1;
        const version = (all.at(-1)?.version ?? 0) + 1;
        if (id > maxInt32) throw refusals.exhausted('the next schema id');
        if (version > maxInt32) throw refusals.exhausted(`the next version of subject ${subject}`);
        await commit(
          {
            kind: 'schema',
            subject,
            version,
            id,
            schemaType: candidate.definition.schemaType,
            schema: candidate.definition.schema,
            references,
            deleted: false,
          },
          identity,
        );
        return { id, version };
      });
    },

    async lookup(subject, definition, options = {}) {
      const { identity } = await identified(definition);
      const versions = state.versionsOf(subject, options.deleted === true);
      if (versions.length === 0) throw refusals.subjectNotFound(subject);
      // The newest version holding it, as a re-registration after a soft delete makes a newer one.
      const entry = versions.findLast((candidate) => state.schemas.get(candidate.id)?.identity === identity);
      if (entry === undefined) throw refusals.schemaNotFound();
      return describe(entry);
    },

    async formatted(definition, format = 'default') {
      if ((definition.schemaType ?? 'AVRO') === 'AVRO') {
        if (format !== 'resolved' || (definition.references ?? []).length === 0) return definition.schema;
        const referenced = resolveReferences(definition.references ?? []);
        return work.render({ ...definition, schemaType: 'AVRO', referenced }, 'resolved');
      }
      if (definition.schemaType !== 'PROTOBUF') return definition.schema;
      // A .proto text asked for as text is served as it stands, without a trip to the worker.
      if (format !== 'serialized' && !/^[A-Za-z0-9+/=\s]+$/.test(definition.schema)) return definition.schema;
      const referenced = resolveReferences(definition.references ?? []);
      return work.render({ ...definition, referenced }, format === 'serialized' ? 'serialized' : 'text');
    },

    async testCompatibility(subject, definition, version) {
      const candidate = await identified(definition);
      const level = state.levelOf(subject, fallbackLevel);
      const live = state.versionsOf(subject, false);
      let against: VersionEntry[];
      if (version === undefined) against = live;
      else if (version === 'latest') against = live.slice(-1);
      else against = [entryOf(subject, version, false)];
      return compare(candidate, against, level);
    },

    deleteSubject(subject, options = {}) {
      return serialised(async () => {
        writable(subject);
        const all = state.versionsOf(subject, true);
        if (all.length === 0) throw refusals.subjectNotFound(subject);
        const live = all.filter((entry) => !entry.deleted);
        if (options.permanent !== true) {
          if (live.length === 0) throw refusals.subjectSoftDeleted(subject);
          for (const entry of live) {
            const referrers = referrersOf(entry);
            if (referrers.length > 0) throw refusals.referenceExists(subject, entry.version, referrers);
          }
          for (const entry of live) await commit(softDeleted(describe(entry)));
          return live.map((entry) => entry.version);
        }
        if (live.length > 0) throw refusals.subjectNotSoftDeleted(subject);
        for (const entry of all) await commit({ kind: 'purge', subject, version: entry.version });
        if (state.subjectLevels.has(subject)) await commit({ kind: 'config', subject, compatibility: null });
        return all.map((entry) => entry.version);
      });
    },

    deleteVersion(subject, version, options = {}) {
      return serialised(async () => {
        writable(subject);
        const permanent = options.permanent === true;
        // A soft delete takes the latest live version, or the one named even if deleted (to say so).
        const entry = entryOf(subject, version, permanent || version !== 'latest');
        const referrers = referrersOf(entry);
        if (referrers.length > 0) throw refusals.referenceExists(subject, entry.version, referrers);
        if (!permanent) {
          if (entry.deleted) throw refusals.versionSoftDeleted(subject, entry.version);
          await commit(softDeleted(describe(entry)));
        } else {
          if (!entry.deleted) throw refusals.versionNotSoftDeleted(subject, entry.version);
          await commit({ kind: 'purge', subject, version: entry.version });
        }
        return entry.version;
      });
    },

    async close() {
      const drained = tail;
      closed = true;
      await drained;
      work.close();
      await store.close();
    },
  };
}

function softDeleted(version: SubjectVersion): RegistryRecord {
  return {
    kind: 'schema',
    subject: version.subject,
    version: version.version,
    id: version.id,
    schemaType: version.schemaType ?? 'AVRO',
    schema: version.schema,
    references: version.references ?? [],
    deleted: true,
  };
}
