/**
 * The registry's store when nothing must outlive the process (the default of `wirekit registry
 * serve`, and tests): the record log is an array. It copies what it is given, so a caller that
 * keeps the record it appended cannot change the log behind the registry's back.
 */
import type { RegistryRecord, RegistryStore } from './store.js';

export interface MemoryStore extends RegistryStore {
  /** The records appended so far, for inspection. */
  readonly records: readonly RegistryRecord[];
}

export function memoryStore(initial: readonly RegistryRecord[] = []): MemoryStore {
  const records: RegistryRecord[] = initial.map((record) => structuredClone(record));
  return {
    records,
    async load() {
      return records.map((record) => structuredClone(record));
    },
    async append(record) {
      records.push(structuredClone(record));
    },
    async close() {},
  };
}
