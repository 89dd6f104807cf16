/**
 * `wirekit schema import x.json --to ts` of an annotated JSON Schema document: the module it
 * writes builds the schema the document was exported from, every annotated fact included, and
 * compiles under the project's strict options.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';
import { toJsonSchema, toTypeScript } from '../../../src/schema/export/index.js';
import { schemaFromJsonSchema } from '../../../src/schema/import/index.js';
import { type ObjectSchema, type Schema, schemaToJson } from '../../../src/schema/index.js';
import { EveryKind } from '../../fixtures/every-kind.js';
import { cli } from '../../support/cli.js';
import { annotatedSchema } from './annotated-schemas.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
// .scratch/ is git-ignored; the modules import the builders from src/ by a relative path, as
// test/schema/export/typescript.test.ts does, so that no build is needed.
const scratch = `${root}.scratch/annotated-typescript-${process.pid}/`;
const documents = mkdtempSync(join(tmpdir(), 'wirekit-annotated-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(documents, { recursive: true, force: true });
});

const schemas: readonly ObjectSchema[] = [EveryKind, ...fc.sample(annotatedSchema, { numRuns: 16, seed: 1 })];

describe('schema import --to ts of an annotated JSON Schema', () => {
  mkdirSync(scratch, { recursive: true });
  const modules = schemas.map((schema, i) => {
    const document = toJsonSchema(schema, { annotations: true });
    const path = join(documents, `schema-${i}.json`);
    writeFileSync(path, JSON.stringify(document, null, 2));
    const module = `${scratch}schema-${i}.ts`;
    writeFileSync(module, toTypeScript(schemaFromJsonSchema(document), { importFrom: '../../src/index.js' }));
    return { schema, path, module };
  });

  test('the CLI writes the module toTypeScript writes for the imported schema', async () => {
    const { schema, path } = modules[1] as (typeof modules)[number];
    const out = join(documents, 'out.ts');
    const { code, stderr } = await cli(['schema', 'import', path, '--to', 'ts', '--out', out]);
    expect([code, stderr]).toEqual([0, '']);
    const imported = schemaFromJsonSchema(toJsonSchema(schema, { annotations: true }));
    expect(readFileSync(out, 'utf8')).toBe(toTypeScript(imported));
  });

  test.each(modules.map((entry, i) => [i, entry] as const))(
    'module %i builds the exported schema',
    async (_, { schema, module }) => {
      const built = (await import(module)) as Record<string, Schema>;
      const found = (built[schema.name] ?? built[`${schema.name}_`]) as Schema;
      expect(schemaToJson(found)).toEqual(schemaToJson(schema));
    },
  );

  test('every module compiles under the project’s strict options', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      `${root}tsconfig.json`,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => {
          throw new Error('tsconfig.json could not be read');
        },
      },
    );
    if (config === undefined) throw new Error('tsconfig.json could not be read');
    const files = modules.map(({ module }) => module);
    const program = ts.createProgram({ rootNames: files, options: { ...config.options, noEmit: true } });
    const errors = files.flatMap((file) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
    );
    expect(errors).toEqual([]);
  }, 120_000);
});
