/**
 * The registry's store when nothing must outlive the process (the default of `wirekit registry
 * serve`, and tests): the record log is an array. It copies what it is given, so a caller that
 * keeps the record it appended cannot change the log behind the registry's back; strings are
 * immutable, so the copy shares them (a schema's text is held once, not once by the log and once
 * by the registry).
 */
import type { RegistryRecord, RegistryStore } from './store.js';

export interface MemoryStore extends RegistryStore {
  /** The records appended so far, for inspection. */
  readonly records: readonly RegistryRecord[];
}

export function memoryStore(initial: readonly RegistryRecord[] = []): MemoryStore {
  const records: RegistryRecord[] = initial.map(copyOf);
  return {
    records,
    async load() {
      return records.map(copyOf);
    },
    async append(record) {
      records.push(copyOf(record));
    },
    async close() {},
  };
}

/** A copy of the record's objects and arrays, its strings shared. */
function copyOf(record: RegistryRecord): RegistryRecord {
  return record.kind === 'schema'
    ? { ...record, references: record.references.map((reference) => ({ ...reference })) }
    : { ...record };
}
