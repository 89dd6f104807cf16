/**
 * A writer schema's references, fetched: the schemas a registered schema names in `references`
 * (a Protobuf file it imports from another subject, Avro named types), transitively, for the event
 * codec to parse the writer schema with, as the registry parsed it when it was registered.
 */
import type { ReferencedSchema } from './compatibility/index.js';
import type { SchemaReference } from './registry/api.js';
import type { RegistryClient } from './registry/client-api.js';

/** The most schemas one writer schema's references may reach, as the registry allows. */
const maxReferenced = 1_000;

/** The schemas the references name, each once by name, those referred to first. */
export async function fetchReferenced(
  registry: RegistryClient,
  references: readonly SchemaReference[] | undefined,
): Promise<ReferencedSchema[]> {
  const found = new Map<string, ReferencedSchema>();
  const visit = async (reference: SchemaReference, chain: readonly string[]): Promise<void> => {
    if (found.has(reference.name) || chain.includes(reference.name)) return;
    if (found.size >= maxReferenced) return;
    const version = await registry.version(reference.subject, reference.version);
    for (const inner of version.references ?? []) await visit(inner, [...chain, reference.name]);
    found.set(reference.name, {
      name: reference.name,
      schemaType: version.schemaType ?? 'AVRO',
      schema: version.schema,
    });
  };
  for (const reference of references ?? []) await visit(reference, []);
  return [...found.values()];
}
