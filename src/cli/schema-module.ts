/**
 * A JavaScript (or TypeScript) module as `schema export` reads it: the services (`t.service`) and
 * named types (`t.object`, `t.enum`, `t.union`) it exports, such as the module `schema import --to
 * ts` writes. A module runs when imported, so only a file the user names is imported.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SchemaImportError } from '../errors/index.js';
import { isService, type Schema, type ServiceSchema } from '../schema/index.js';

/** The file names read as modules rather than as schema JSON. */
const moduleFile = /\.(?:m?js|cjs|m?ts|cts)$/;

export function isModuleFile(file: string): boolean {
  return moduleFile.test(file);
}

/**
 * The module's exported services, then its other exported named types (a module namespace lists
 * its exports by name), each once. Refused: a module Node cannot import (a TypeScript file without
 * a loader, a syntax error) and one that exports neither.
 */
export async function schemaModuleExports(file: string): Promise<(Schema | ServiceSchema)[]> {
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason =
      code === 'ERR_UNKNOWN_FILE_EXTENSION'
        ? 'is TypeScript, which this Node cannot import by itself: compile it to JavaScript, or run wirekit ' +
          "under a TypeScript loader (NODE_OPTIONS='--import tsx'; Node 22.18 and later import it as it is)."
        : `could not be imported: ${(error as Error).message}`;
    throw new SchemaImportError(reason, { file, cause: error });
  }
  const values = Object.values(exports);
  const services = values.filter(isService);
  const types = values.filter(isNamedType).filter((type, index, all) => all.indexOf(type) === index);
  if (services.length === 0 && types.length === 0) {
    throw new SchemaImportError(
      'exports no service (t.service) and no named type (t.object, t.enum, t.union).',
      { file },
    );
  }
  return [...new Set(services), ...types];
}

function isNamedType(value: unknown): value is Schema {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return (
    (kind === 'object' || kind === 'enum' || kind === 'union') &&
    typeof (value as { name?: unknown }).name === 'string'
  );
}
