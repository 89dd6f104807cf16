/**
 * How the Avro import refuses a schema: WK_SCHEMA_IMPORT with the path into the Avro schema (JSON
 * keys and indexes), shown in front of the message. The schema may be hostile, so what a message
 * quotes of it (a path, a list of branches) is cut to a few parts.
 */
import { formatPath, type Path, SchemaImportError } from '../../errors/index.js';

/** Refuses the schema at `path` (JSON keys and indexes into the Avro schema). */
export function refuse(path: Path, message: string): never {
  throw new SchemaImportError(`${placeText(path)}: ${message}`, { format: 'avro', path });
}

/** Parts of a path or list shown in a message; the schema may be hostile, the message stays short. */
export const shownParts = 12;

/** The path as a message shows it: its start, then how many steps more (error.path has them all). */
export function placeText(path: Path): string {
  if (path.length <= shownParts) return formatPath(path);
  return `${formatPath(path.slice(0, shownParts))}… (${path.length - shownParts} steps deeper)`;
}
