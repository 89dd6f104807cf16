/**
 * The schema registry's compatibility rules: parsing a registered schema of each type, and checking
 * a candidate against a subject's existing versions under a compatibility level. One module per
 * schema type holds its rules (avro.ts, protobuf.ts, wirekit.ts); this one dispatches on the type
 * and applies the level:
 *
 * - BACKWARD: the candidate reads data written with the newest version; FORWARD: the newest
 *   version reads data written with the candidate; FULL: both. The _TRANSITIVE forms check every
 *   existing version, not only the newest. NONE checks nothing.
 * - A candidate of another schema type than a version it is checked against is incompatible.
 *
 * JSON Schema (Confluent's third type) is not supported: it is refused as WK_REGISTRY_SCHEMA_INVALID.
 * Schema references (a Protobuf import, an Avro named type, defined in another subject's version)
 * are read from the schemas the caller resolved them to (`ResolvedDefinition`).
 */
import type { AvroType } from '../../../codecs/avro/avro-schema.js';
import { WirekitError } from '../../../errors/index.js';
import {
  type CompatibilityLevel,
  compatibilityLevels,
  type SchemaDefinition,
  type SchemaType,
} from '../registry/api.js';
import type { CompatibilityResult } from '../registry/client-api.js';
import { avroReadFindings } from './avro.js';
import { parseRegisteredAvro } from './avro-text.js';
import {
  backwardRoles,
  type CompatibilityIssue,
  forwardRoles,
  issueLine,
  issueOf,
  type Roles,
} from './issues.js';
import { protobufReadFindings } from './protobuf.js';
import { type ProtoFile, parseProtoFile } from './protobuf-schema.js';
import { checkSchemaText, resolvedLimits, type SchemaLimits, schemaInvalid } from './schema-text.js';
import { parseRegisteredWirekit, type RegisteredWirekit, wirekitReadFindings } from './wirekit.js';

export type { CompatibilityIssue } from './issues.js';
export { messageIndexesOf, protobufMessageAt } from './protobuf.js';
export { type ProtoFile, protoTextOf } from './protobuf-schema.js';
export { checkSchemaBounds, defaultSchemaLimits, type SchemaLimits } from './schema-text.js';
export type { RegisteredWirekit } from './wirekit.js';

/** A schema a reference names, as its version holds it. */
export interface ReferencedSchema {
  /** The reference's name: the path a Protobuf file imports it by, or for Avro any label. */
  readonly name: string;
  readonly schemaType: SchemaType;
  readonly schema: string;
}

/**
 * A definition with the schemas its references name, transitively (a referenced schema's own
 * references too), each once by name, in an order where a schema comes after those it refers to.
 */
export interface ResolvedDefinition extends SchemaDefinition {
  readonly referenced?: readonly ReferencedSchema[];
}

/** A registered schema's parsed form, by type. */
export type ParsedForm =
  | { readonly schemaType: 'AVRO'; readonly avro: AvroType; readonly nodes: number }
  | { readonly schemaType: 'PROTOBUF'; readonly proto: ProtoFile }
  | { readonly schemaType: 'WIREKIT'; readonly wirekit: RegisteredWirekit };

/** A registered schema, parsed and checked. */
export interface ParsedSchema {
  readonly schemaType: SchemaType;
  /** The text as given. */
  readonly text: string;
  /**
   * The form two registrations are compared in ("same schema → same id"): equal for texts that
   * differ only in insignificant whitespace (and, for Avro, JSON key order). Avro and wirekit: the
   * JSON with sorted keys and no whitespace; Protobuf: the file as wirekit's .proto reader reads
   * it, comments and formatting dropped, declaration order kept (message indexes depend on it).
   */
  readonly canonical: string;
  /**
   * The parsed schema the rules compare. Optional so that a ParsedSchema made by hand (from a
   * stored record) still checks: without it the text is parsed again.
   */
  readonly parsed?: ParsedForm;
}

/**
 * Parses a schema of its type; WK_REGISTRY_SCHEMA_INVALID when it does not parse, its type is
 * unknown, it carries references whose schemas are not given (or of another type), or it is past
 * the limits.
 */
export function parseRegisteredSchema(
  definition: ResolvedDefinition,
  limits: SchemaLimits = {},
): ParsedSchema {
  const resolved = resolvedLimits(limits);
  if (typeof definition !== 'object' || definition === null)
    throw schemaInvalid('A schema definition must be an object.');
  const schemaType = (definition.schemaType ?? 'AVRO') as unknown;
  if (schemaType !== 'AVRO' && schemaType !== 'PROTOBUF' && schemaType !== 'WIREKIT') {
    const named =
      typeof schemaType === 'string' ? JSON.stringify(schemaType.slice(0, 40)) : typeof schemaType;
    throw schemaInvalid(
      schemaType === 'JSON'
        ? 'JSON Schema is not supported by this registry; register AVRO, PROTOBUF or WIREKIT schemas.'
        : `Unknown schemaType ${named}; this registry holds AVRO, PROTOBUF and WIREKIT (JSON Schema is not supported).`,
    );
  }
  const references = definition.references as unknown;
  const referenced = definition.referenced ?? [];
  if (references !== undefined && references !== null && !Array.isArray(references))
    throw schemaInvalid('"references" must be an array.');
  const named = Array.isArray(references) ? references.length : 0;
  if (named > 0 && (schemaType === 'WIREKIT' || referenced.length === 0)) {
    throw schemaInvalid(
      schemaType === 'WIREKIT'
        ? 'A WIREKIT schema holds every type it uses; it takes no references.'
        : `The ${schemaType} schema names references whose schemas were not given.`,
    );
  }
  for (const schema of referenced) {
    if (schema.schemaType !== schemaType) {
      throw schemaInvalid(
        `Reference ${JSON.stringify(schema.name)} is a ${schema.schemaType} schema; a ${schemaType} schema can only refer to ${schemaType} schemas.`,
      );
    }
  }
  const text = checkSchemaText(definition.schema, schemaType, resolved);
  switch (schemaType) {
    case 'AVRO': {
      const texts = referenced.map((schema) => checkSchemaText(schema.schema, schemaType, resolved));
      const { type, canonical, nodes } = parseRegisteredAvro(text, resolved, texts);
      return { schemaType, text, canonical, parsed: { schemaType, avro: type, nodes } };
    }
    case 'PROTOBUF': {
      const files = new Map(referenced.map((schema) => [schema.name, schema.schema] as const));
      const proto = parseProtoFile(text, resolved, files);
      return { schemaType, text, canonical: proto.canonical, parsed: { schemaType, proto } };
    }
    case 'WIREKIT': {
      const wirekit = parseRegisteredWirekit(text, resolved);
      return { schemaType, text, canonical: wirekit.canonical, parsed: { schemaType, wirekit } };
    }
  }
}

export interface CheckOptions {
  /**
   * The version numbers of `existing`, in the same order, for the `{oldSchemaVersion: N}` lines
   * Confluent writes after each incompatible version's messages.
   */
  readonly versions?: readonly number[];
}

/** The issues found against one existing version. */
export interface VersionIssues {
  /** The index of the version in `existing`. */
  readonly index: number;
  /** Which check found them: the candidate reading that version's data, or that version reading the candidate's. */
  readonly direction: 'BACKWARD' | 'FORWARD';
  readonly issues: readonly CompatibilityIssue[];
}

/**
 * Checks `candidate` against the existing versions of a subject (oldest first) under `level`:
 * BACKWARD and FORWARD and FULL against the newest, the _TRANSITIVE forms against all, NONE never
 * fails. A candidate of another schema type than a version it is checked against is incompatible.
 * `messages` are Confluent's verbose lines: one per broken rule, then `{oldSchemaVersion: N}` (when
 * `options.versions` says) for each incompatible version, then `{compatibility: 'LEVEL'}`.
 */
export function checkCompatibility(
  candidate: ParsedSchema,
  existing: readonly ParsedSchema[],
  level: CompatibilityLevel,
  options: CheckOptions = {},
): CompatibilityResult {
  const report = compatibilityReport(candidate, existing, level);
  if (report.length === 0) return { compatible: true, messages: [] };
  const messages: string[] = [];
  const prefix = candidate.schemaType === 'WIREKIT';
  let lastIndex = -1;
  for (const { index, issues } of report) {
    if (lastIndex !== -1 && index !== lastIndex) versionLine(messages, options, lastIndex);
    lastIndex = index;
    for (const issue of issues)
      messages.push(`${prefix ? `${ruleNames[issue.rules]}: ` : ''}${issueLine(issue)}`);
  }
  versionLine(messages, options, lastIndex);
  messages.push(`{compatibility: '${level}'}`);
  return { compatible: false, messages };
}

const ruleNames = { avro: 'Avro', protobuf: 'Protobuf', wirekit: 'wirekit' } as const;

function versionLine(messages: string[], options: CheckOptions, index: number): void {
  const version = options.versions?.[index];
  if (version !== undefined) messages.push(`{oldSchemaVersion: ${version}}`);
}

/** The structured form of checkCompatibility's answer: every version and direction that failed, in order. */
export function compatibilityReport(
  candidate: ParsedSchema,
  existing: readonly ParsedSchema[],
  level: CompatibilityLevel,
): VersionIssues[] {
  if (!(compatibilityLevels as readonly unknown[]).includes(level)) {
    throw new WirekitError(
      'WK_REGISTRY_REQUEST',
      `Unknown compatibility level ${JSON.stringify(String(level).slice(0, 40))}.`,
    );
  }
  if (level === 'NONE' || existing.length === 0) return [];
  const transitive = level.endsWith('_TRANSITIVE');
  const base = level.replace('_TRANSITIVE', '');
  const directions: ('BACKWARD' | 'FORWARD')[] =
    base === 'FULL' ? ['BACKWARD', 'FORWARD'] : [base as 'BACKWARD' | 'FORWARD'];
  const first = transitive ? 0 : existing.length - 1;
  const report: VersionIssues[] = [];
  const mine = formOf(candidate);
  // Newest first, as Confluent reports a transitive failure.
  for (let index = existing.length - 1; index >= first; index--) {
    const other = existing[index] as ParsedSchema;
    const theirs = formOf(other);
    for (const direction of directions) {
      const issues =
        direction === 'BACKWARD'
          ? readIssues(mine, theirs, 'reader', backwardRoles)
          : readIssues(theirs, mine, 'writer', forwardRoles);
      if (issues.length > 0) report.push({ index, direction, issues });
    }
  }
  return report;
}

function formOf(schema: ParsedSchema): ParsedForm {
  if (schema.parsed !== undefined) return schema.parsed;
  const parsed = parseRegisteredSchema({ schemaType: schema.schemaType, schema: schema.text }).parsed;
  return parsed as ParsedForm;
}

/** Whether `reader` reads what `writer` writes; `newer` is which of them is the candidate. */
function readIssues(
  reader: ParsedForm,
  writer: ParsedForm,
  newer: 'reader' | 'writer',
  roles: Roles,
): CompatibilityIssue[] {
  if (reader.schemaType !== writer.schemaType) {
    const [mine, theirs] = newer === 'reader' ? [reader, writer] : [writer, reader];
    return [
      {
        rules:
          mine.schemaType === 'PROTOBUF' ? 'protobuf' : mine.schemaType === 'WIREKIT' ? 'wirekit' : 'avro',
        errorType: 'TYPE_MISMATCH',
        path: '/',
        description: `The new schema is of type ${mine.schemaType} and the old one of type ${theirs.schemaType}`,
        additionalInfo: `expected: ${theirs.schemaType}, found: ${mine.schemaType}`,
      },
    ];
  }
  switch (reader.schemaType) {
    case 'AVRO':
      return avroReadFindings(
        reader.avro,
        (writer as typeof reader).avro,
        reader.nodes + (writer as typeof reader).nodes,
      ).map((f) => issueOf('avro', f, roles));
    case 'PROTOBUF':
      return protobufReadFindings(reader.proto, (writer as typeof reader).proto, newer).map((f) =>
        issueOf('protobuf', f, roles),
      );
    case 'WIREKIT':
      return wirekitReadFindings(reader.wirekit, (writer as typeof reader).wirekit, newer).map(
        ({ rules, finding }) => issueOf(rules, finding, roles),
      );
  }
}
