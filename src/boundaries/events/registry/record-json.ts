/**
 * Reading registry records back from a durable store (a file's lines, a Kafka topic's messages).
 * What comes back from disk or a broker is untrusted: a record is rebuilt field by field from
 * what parsed, every field checked, so a damaged or hand-edited log fails loudly at start with
 * where it broke, instead of loading a registry that answers with the wrong schema for an id.
 */
import { WirekitError } from '../../../errors/index.js';
import { compatibilityLevels, registryModes, type SchemaReference, schemaTypes } from './api.js';
import type { RegistryRecord } from './store.js';

/** A store's log holds something that is not a registry record; `location` says where. */
export class StoreCorruptError extends WirekitError {
  override readonly name: string = 'StoreCorruptError';
  readonly location: string;

  constructor(location: string, problem: string, options: { offset?: number; cause?: unknown } = {}) {
    super('WK_REGISTRY_UNAVAILABLE', `the registry's store is corrupt at ${location}: ${problem}`, options);
    this.location = location;
  }
}

const maxInt32 = 2 ** 31 - 1;

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positiveInt32(fields: Fields, name: string): number {
  const value = fields[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > maxInt32) {
    throw new Error(`${name} is not a whole number from 1 to 2^31-1`);
  }
  return value;
}

function string(fields: Fields, name: string): string {
  const value = fields[name];
  if (typeof value !== 'string') throw new Error(`${name} is not a string`);
  return value;
}

function references(value: unknown): SchemaReference[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error('references is not an array');
  return value.map((item, index) => {
    if (!isFields(item)) throw new Error(`references[${index}] is not an object`);
    return {
      name: string(item, 'name'),
      subject: string(item, 'subject'),
      version: positiveInt32(item, 'version'),
    };
  });
}

function recordOf(value: unknown): RegistryRecord {
  if (!isFields(value)) throw new Error('a record is not a JSON object');
  const kind = value.kind;
  if (kind === 'schema') {
    const schemaType = value.schemaType;
    const type = schemaTypes.find((known) => known === schemaType);
    if (type === undefined) throw new Error(`schemaType ${JSON.stringify(schemaType)} is unknown`);
    if (typeof value.deleted !== 'boolean') throw new Error('deleted is not a boolean');
    return {
      kind,
      subject: string(value, 'subject'),
      version: positiveInt32(value, 'version'),
      id: positiveInt32(value, 'id'),
      schemaType: type,
      schema: string(value, 'schema'),
      references: references(value.references),
      deleted: value.deleted,
    };
  }
  if (kind === 'config') {
    const subject = value.subject === null ? null : string(value, 'subject');
    const compatibility =
      value.compatibility === null
        ? null
        : compatibilityLevels.find((level) => level === value.compatibility);
    if (compatibility === undefined) {
      throw new Error(`compatibility ${JSON.stringify(value.compatibility)} is no level`);
    }
    return { kind, subject, compatibility };
  }
  if (kind === 'mode') {
    const subject = value.subject === null ? null : string(value, 'subject');
    const mode = value.mode === null ? null : registryModes.find((known) => known === value.mode);
    if (mode === undefined)
      throw new Error(`mode ${JSON.stringify(value.mode)} is not one this registry holds`);
    return { kind, subject, mode };
  }
  if (kind === 'purge') {
    return { kind, subject: string(value, 'subject'), version: positiveInt32(value, 'version') };
  }
  if (kind === 'ids') return { kind, highest: positiveInt32(value, 'highest') };
  throw new Error(`kind ${JSON.stringify(kind)} is unknown`);
}

/** The record `value` (parsed JSON) holds, checked; StoreCorruptError naming `location` if it holds none. */
export function checkedRecord(value: unknown, location: string, offset?: number): RegistryRecord {
  try {
    return recordOf(value);
  } catch (cause) {
    throw new StoreCorruptError(location, (cause as Error).message, {
      cause,
      ...(offset === undefined ? {} : { offset }),
    });
  }
}
