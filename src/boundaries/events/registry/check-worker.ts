/**
 * The registry's schema work, run in a worker thread (schema-work.ts starts it): parsing a schema
 * to learn its identity, and checking a candidate against existing versions. Parsed schemas are
 * kept here, in a bounded cache by identity, so the thread that answers requests holds only the
 * texts. A check names the existing versions by identity; those not in the cache are asked for
 * (`need`), so a text crosses threads only when it has to be parsed again.
 *
 * The messages are plain data, and every answer is one of: an identity, a refusal of the schema
 * (WK_REGISTRY_SCHEMA_INVALID's message), a verdict, or a failure that is wirekit's bug.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { fileDescriptorOfProto } from '../../../codecs/protobuf/index.js';
import { isWirekitError } from '../../../errors/index.js';
import { resolvedAvroText } from '../compatibility/avro-resolved.js';
import {
  checkCompatibility,
  type ParsedSchema,
  parseRegisteredSchema,
  protoTextOf,
  type ResolvedDefinition,
  type SchemaLimits,
} from '../compatibility/index.js';
import { resolvedLimits } from '../compatibility/schema-text.js';
import type { CompatibilityLevel } from './api.js';
import type { CompatibilityResult } from './client-api.js';
import { ParsedCache, type ParsedCacheLimits } from './parsed-cache.js';
import { identityOf } from './registry-state.js';

export interface CheckWorkerData {
  readonly cache: ParsedCacheLimits;
}

/** An existing version a check compares with: its schema's identity and id. */
export interface ExistingRef {
  readonly identity: string;
  readonly id: number;
}

export type CheckRequest =
  | {
      readonly kind: 'identify';
      readonly job: number;
      readonly limits: SchemaLimits;
      readonly definition: ResolvedDefinition;
    }
  | {
      readonly kind: 'check';
      readonly job: number;
      readonly limits: SchemaLimits;
      readonly candidate: { readonly identity: string; readonly definition: ResolvedDefinition };
      readonly existing: readonly ExistingRef[];
      readonly level: CompatibilityLevel;
      readonly versions: readonly number[];
    }
  /**
   * A schema as a reader asks for it: `text` (a registered FileDescriptorProto as .proto text),
   * `serialized` (a Protobuf schema as a base64 FileDescriptorProto, Confluent's `?format=serialized`)
   * or `resolved` (an Avro schema with its references' types written in, `?format=resolved`).
   */
  | {
      readonly kind: 'render';
      readonly job: number;
      readonly limits: SchemaLimits;
      readonly definition: ResolvedDefinition;
      readonly format: RenderFormat;
    }
  /** The texts of the versions a `need` asked for, by id. */
  | { readonly kind: 'texts'; readonly job: number; readonly texts: readonly ResolvedDefinition[] };

export type CheckReply =
  | { readonly kind: 'identified'; readonly job: number; readonly identity: string }
  | { readonly kind: 'rendered'; readonly job: number; readonly schema: string }
  | { readonly kind: 'invalid'; readonly job: number; readonly message: string }
  | { readonly kind: 'need'; readonly job: number; readonly ids: readonly number[] }
  | { readonly kind: 'checked'; readonly job: number; readonly result: CompatibilityResult }
  | { readonly kind: 'failed'; readonly job: number; readonly message: string };

const cache = new ParsedCache((workerData as CheckWorkerData).cache);
/** Checks waiting for texts, by job. */
const waiting = new Map<number, (texts: readonly ResolvedDefinition[]) => void>();

function reply(message: CheckReply): void {
  parentPort?.postMessage(message);
}

/**
 * Parses a definition and keeps it under its identity. Registries of one process share the worker
 * and so the cache: an identity names one schema whatever registry parsed it, and a candidate is
 * always parsed under its own registry's limits.
 */
function parse(
  definition: ResolvedDefinition,
  limits: SchemaLimits,
): { parsed: ParsedSchema; identity: string } {
  const parsed = parseRegisteredSchema(definition, limits);
  const identity = identityOf(parsed.schemaType, parsed.canonical, definition.references ?? []);
  cache.set(identity, parsed);
  return { parsed, identity };
}

/** Runs `work`, answering a refusal of the schema or a bug for the job when it throws. */
function answering(job: number, work: () => void): void {
  try {
    work();
  } catch (error) {
    if (isWirekitError(error, 'WK_REGISTRY_SCHEMA_INVALID'))
      reply({ kind: 'invalid', job, message: error.message });
    else
      reply({
        kind: 'failed',
        job,
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
  }
}

function check(request: Extract<CheckRequest, { kind: 'check' }>): void {
  const { job, candidate, existing, level, versions, limits } = request;
  const mine = cache.get(candidate.identity) ?? parse(candidate.definition, limits).parsed;
  // The cached versions are taken now: a text that arrives later cannot evict them from this check.
  const parsed = existing.map((ref) => cache.get(ref.identity));
  const missing = existing.filter((_ref, i) => parsed[i] === undefined).map((ref) => ref.id);
  const finish = (texts: readonly ResolvedDefinition[]) =>
    answering(job, () => {
      let next = 0;
      const all: ParsedSchema[] = [];
      for (const known of parsed) {
        if (known !== undefined) all.push(known);
        else {
          const text = texts[next++] as ResolvedDefinition;
          try {
            all.push(parse(text, limits).parsed);
          } catch (error) {
            // A version stored before a rule tightened cannot be shown compatible.
            if (!isWirekitError(error, 'WK_REGISTRY_SCHEMA_INVALID')) throw error;
            const result = {
              compatible: false,
              messages: [`an existing version no longer parses: ${error.message}`],
            };
            reply({ kind: 'checked', job, result });
            return;
          }
        }
      }
      reply({ kind: 'checked', job, result: checkCompatibility(mine, all, level, { versions }) });
    });
  if (missing.length === 0) finish([]);
  else {
    waiting.set(job, finish);
    reply({ kind: 'need', job, ids: missing });
  }
}

/** A Protobuf schema's text or descriptor (anything else as it stands). */
/** How render() gives a stored schema (see its request above). */
export type RenderFormat = 'text' | 'serialized' | 'resolved';

function render(request: Extract<CheckRequest, { kind: 'render' }>): string {
  const { definition, format } = request;
  if (definition.schemaType === 'AVRO' && format === 'resolved') {
    const referenced = (definition.referenced ?? []).map((schema) => schema.schema);
    return resolvedAvroText(definition.schema, referenced, resolvedLimits(request.limits));
  }
  if (definition.schemaType !== 'PROTOBUF') return definition.schema;
  const text = protoTextOf(definition.schema);
  if (format === 'text') return text;
  // A registered descriptor is served as it came: its bytes are its producer's, message indexes included.
  if (text !== definition.schema) return definition.schema.trim();
  const files = new Map((definition.referenced ?? []).map((schema) => [schema.name, schema.schema]));
  const bytes = fileDescriptorOfProto(text, {
    name: 'default',
    imports: (path) => {
      const source = files.get(path);
      return source === undefined ? undefined : protoTextOf(source);
    },
  });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

parentPort?.on('message', (request: CheckRequest) => {
  const { job } = request;
  switch (request.kind) {
    case 'identify':
      answering(job, () =>
        reply({ kind: 'identified', job, identity: parse(request.definition, request.limits).identity }),
      );
      return;
    case 'check':
      answering(job, () => check(request));
      return;
    case 'render':
      answering(job, () => reply({ kind: 'rendered', job, schema: render(request) }));
      return;
    case 'texts': {
      const finish = waiting.get(job);
      waiting.delete(job);
      finish?.(request.texts);
      return;
    }
  }
});
