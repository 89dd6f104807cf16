/**
 * The registry's settings, global or per subject: compatibility levels (`/config`) and modes
 * (`/mode`), as Confluent's API has them. A setting is a record in the log like any other, written
 * through the registry's one writer queue; the domain calls (registry.ts) spread these in.
 *
 * READONLY follows Confluent's rule: while a subject's mode (or, with none, the registry's) is
 * READONLY, registrations, deletions and level changes are refused with 42205; reads, lookups and
 * compatibility checks go on. Mode changes stay allowed, or READONLY could never be left.
 */
import { type CompatibilityLevel, compatibilityLevels, type RegistryMode, registryModes } from './api.js';
import { refusals } from './registry-error.js';
import type { RegistryState } from './registry-state.js';
import type { RegistryRecord } from './store.js';

export interface SettingsCalls {
  /** The registry's level (no subject), or the subject's own (40408 when it has none, unless defaultToGlobal). */
  compatibility(subject?: string, options?: { defaultToGlobal?: boolean }): CompatibilityLevel;
  setCompatibility(level: string, subject?: string): Promise<CompatibilityLevel>;
  /** Removes the subject's level (40401 when it has none) or resets the registry's: the level it was. */
  deleteCompatibility(subject?: string): Promise<CompatibilityLevel>;
  /** The registry's mode (no subject), or the subject's own (40409 when it has none, unless defaultToGlobal). */
  mode(subject?: string, options?: { defaultToGlobal?: boolean }): RegistryMode;
  /** Sets the mode (42204 for one this registry does not hold); allowed in READONLY. */
  setMode(mode: string, subject?: string): Promise<RegistryMode>;
  /** Removes the subject's mode (40401 when it has none): the mode it was. */
  deleteMode(subject: string): Promise<RegistryMode>;
}

export interface SettingsContext {
  readonly state: RegistryState;
  readonly fallbackLevel: CompatibilityLevel;
  /** Runs a mutation after every earlier one settled. */
  readonly serialised: <T>(work: () => Promise<T>) => Promise<T>;
  /** Appends a record and, once the store has it, applies it. */
  readonly commit: (record: RegistryRecord) => Promise<void>;
  readonly checkSubject: (subject: string) => void;
}

export function registrySettings(context: SettingsContext): {
  calls: SettingsCalls;
  /** Throws 42205 when the subject (or, for `undefined`, the registry's own settings) is READONLY. */
  writable: (subject: string | undefined) => void;
} {
  const { state, fallbackLevel, serialised, commit, checkSubject } = context;

  const writable = (subject: string | undefined): void => {
    if (state.modeOf(subject) === 'READONLY') throw refusals.readOnly(subject);
  };

  const levelOf = (level: string): CompatibilityLevel => {
    const upper = level.toUpperCase();
    const known = compatibilityLevels.find((candidate) => candidate === upper);
    if (known === undefined) throw refusals.invalidCompatibilityLevel();
    return known;
  };

  const calls: SettingsCalls = {
    compatibility(subject, options = {}) {
      if (subject === undefined) return state.globalLevel ?? fallbackLevel;
      const own = state.subjectLevels.get(subject);
      if (own !== undefined) return own;
      if (options.defaultToGlobal === true) return state.globalLevel ?? fallbackLevel;
      throw refusals.compatibilityNotConfigured(subject);
    },

    setCompatibility(level, subject) {
      if (subject !== undefined) checkSubject(subject);
      const compatibility = levelOf(level);
      return serialised(async () => {
        writable(subject);
        await commit({ kind: 'config', subject: subject ?? null, compatibility });
        return compatibility;
      });
    },

    deleteCompatibility(subject) {
      return serialised(async () => {
        writable(subject);
        const was =
          subject === undefined ? (state.globalLevel ?? fallbackLevel) : state.subjectLevels.get(subject);
        if (was === undefined) throw refusals.subjectNotFound(subject as string);
        await commit({ kind: 'config', subject: subject ?? null, compatibility: null });
        return was;
      });
    },

    mode(subject, options = {}) {
      if (subject === undefined || options.defaultToGlobal === true) return state.modeOf(subject);
      const own = state.subjectModes.get(subject);
      if (own === undefined) throw refusals.modeNotConfigured(subject);
      return own;
    },

    setMode(mode, subject) {
      if (subject !== undefined) checkSubject(subject);
      const upper = mode.toUpperCase();
      const known = registryModes.find((candidate) => candidate === upper);
      if (known === undefined) throw refusals.invalidMode();
      return serialised(async () => {
        await commit({ kind: 'mode', subject: subject ?? null, mode: known });
        return known;
      });
    },

    deleteMode(subject) {
      return serialised(async () => {
        const was = state.subjectModes.get(subject);
        if (was === undefined) throw refusals.subjectNotFound(subject);
        await commit({ kind: 'mode', subject, mode: null });
        return was;
      });
    },
  };
  return { calls, writable };
}
