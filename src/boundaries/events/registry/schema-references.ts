/**
 * Schema references: a registered schema may use what another subject's version defines (a
 * Protobuf file it imports, an Avro named type), naming it `{name, subject, version}` as Confluent's
 * API does. Here a schema's references become the schemas they name, for the parse and the
 * compatibility checks to read (compatibility/index.ts's ResolvedDefinition).
 *
 * A reference names a version, not an id, and a soft-deleted version still counts (Confluent's
 * rule: a version cannot be deleted, softly or not, while a live version refers to it, so what a
 * reference names was there when it was made and stays until the referrer goes).
 */
import type { ReferencedSchema } from '../compatibility/index.js';
import type { SchemaReference } from './api.js';
import { refusals } from './registry-error.js';
import type { RegistryState } from './registry-state.js';

/** The most schemas one schema's references may reach, transitively. */
const maxReferenced = 1_000;

/**
 * The schemas the references name, transitively (a referenced schema's own references too), each
 * once by name, those referred to before those that refer to them; 42201 when a reference names a
 * version that does not exist.
 */
export function referencedSchemas(
  state: RegistryState,
  references: readonly SchemaReference[],
): ReferencedSchema[] {
  const found = new Map<string, ReferencedSchema>();
  const visit = (reference: SchemaReference, chain: readonly string[]): void => {
    if (found.has(reference.name) || chain.includes(reference.name)) return;
    const entry = state.subjects.get(reference.subject)?.get(reference.version);
    const stored = entry === undefined ? undefined : state.schemas.get(entry.id);
    if (stored === undefined) {
      throw refusals.invalidSchema(
        `reference ${reference.name} names ${reference.subject} version ${reference.version}, which does not exist`,
      );
    }
    if (found.size >= maxReferenced)
      throw refusals.invalidSchema(`the references reach more than ${maxReferenced} schemas`);
    for (const inner of stored.references) visit(inner, [...chain, reference.name]);
    found.set(reference.name, { name: reference.name, schemaType: stored.schemaType, schema: stored.schema });
  };
  for (const reference of references) visit(reference, []);
  return [...found.values()];
}
