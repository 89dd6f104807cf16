/** `wirekit schema`: infer, export, import and check (the last two in modules of their own). */
import {
  arrowSchemaToJson,
  toArrowSchema,
  toAvro,
  toFlatBuffers,
  toJsonSchema,
  toProto,
} from '../../schema/export/index.js';
import { inferSchema, type Schema, schemaFromJson, schemaToJson } from '../../schema/index.js';
import { parseJsonSamples, parseJsonText } from '../../util/json-samples.js';
import { type CliIo, inputLimitOf, inputLimitOption, readInput } from '../io.js';
import { isModuleFile, schemaModuleExports } from '../schema-module.js';
import { parseCommand, usageError } from '../usage.js';
import { schemaCheck, schemaCheckHelp } from './schema-check.js';
import { schemaImport, schemaImportHelp } from './schema-import.js';

export const schemaHelp = `Usage:
  wirekit schema infer [FILE|-] [--name NAME] [--numbers wide|narrowest] [--no-timestamps] [--whole]
                       [--max-fields N] [--max-input-bytes N]
      Prints the schema (its JSON form) of the values in FILE: JSON, a JSON array (each item is a
      sample, unless --whole), or NDJSON. Reads standard input for '-' or no FILE, at most 64 MiB
      unless --max-input-bytes N allows more. For an array or NDJSON the schema is one item's:
      'encode --schema' then writes the items as a sequence.
      Numbers get room to grow by default (--numbers wide): integers int32, or int64 as numbers
      beyond int32, fractions float64. --numbers narrowest picks the smallest kind that holds the
      samples (uint8 for 0..200, float32 for 0.5): only for data whose range cannot grow.
      An object whose keys are all integers ({"17": ..., "42": ...}), or that has more than
      --max-fields distinct keys (1000), is a map from string keys, not a record of those fields.
      A key the schema could not carry (__proto__; '' as a field name; constructor or prototype
      in a json value) is refused with its path (WK_SCHEMA_INVALID), never dropped.
  wirekit schema export --to FORMAT [SCHEMA.json|MODULE.js|-] [--namespace NS] [--root-name NAME]
                        [--annotations]
      Prints the schema in another schema language. FORMAT is one of:
      proto (proto3), avro (.avsc), fbs (FlatBuffers), arrow (Arrow schema as JSON), json-schema
      (2020-12, describing the JSON form of values). With --to proto the input may be a JavaScript
      module (.js, .mjs; TypeScript under a loader): its exported services (t.service) and named
      types are printed as one .proto file, the messages once each, then the service blocks. With json-schema, --annotations adds the
      x-wirekit-* keywords (kinds, field numbers, precisions...) that 'schema import' reads back
      into the same schema; a strict Ajv must be told of them (docs/mapping/json-schema.md).
${schemaImportHelp}
${schemaCheckHelp}`;

/** The exit code: 0, or `schema check`'s own (1 incompatible, 2 bad input). */
export async function schemaCommand(args: readonly string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'check') return schemaCheck(rest, io);
  if (sub === 'infer') await infer(rest, io);
  else if (sub === 'export') await exportSchema(rest, io);
  else if (sub === 'import') await schemaImport(rest, io);
  else throw unknownSubcommand(sub);
  return 0;
}

function unknownSubcommand(sub: string | undefined): Error {
  return usageError(
    sub === undefined
      ? 'wirekit schema needs a subcommand: infer, export, import or check.'
      : `unknown subcommand schema ${sub}.`,
  );
}

async function infer(args: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseCommand(args, {
    name: { type: 'string' },
    numbers: { type: 'string' },
    'no-timestamps': { type: 'boolean' },
    whole: { type: 'boolean' },
    'max-fields': { type: 'string' },
    ...inputLimitOption,
  });
  const maxFields = values['max-fields'] === undefined ? undefined : Number(values['max-fields']);
  if (maxFields !== undefined && !(Number.isSafeInteger(maxFields) && maxFields >= 0))
    throw usageError('--max-fields takes a non-negative integer.');
  const numbers = values.numbers ?? 'wide';
  if (numbers !== 'narrowest' && numbers !== 'wide') throw usageError('--numbers is wide or narrowest.');
  const file = onePositional(positionals, 'FILE');
  const text = (await readInput(io, file, inputLimitOf(values))).toString('utf8');
  const samples = parseJsonSamples(text, file === '-' ? 'standard input' : file, values.whole === true);
  const schema = inferSchema(samples, {
    ...(values.name === undefined ? {} : { name: values.name }),
    numbers,
    timestamps: values['no-timestamps'] !== true,
    ...(maxFields === undefined ? {} : { maxFields }),
  });
  io.stdout.write(`${JSON.stringify(schemaToJson(schema), null, 2)}\n`);
}

type Exporter = (
  schema: Schema,
  options: { namespace?: string; rootName?: string; annotations: boolean },
) => string;

/** By --to name; a Map, so that `--to constructor` is an unknown name like any other. */
const exporters: ReadonlyMap<string, Exporter> = new Map<string, Exporter>([
  ['proto', (schema, { namespace, rootName }) => toProto(schema, { package: namespace, rootName })],
  ['avro', (schema, options) => `${JSON.stringify(toAvro(schema, options), null, 2)}\n`],
  ['fbs', (schema, options) => toFlatBuffers(schema, options)],
  ['arrow', (schema) => `${JSON.stringify(arrowSchemaToJson(toArrowSchema(schema)), null, 2)}\n`],
  [
    'json-schema',
    (schema, { annotations }) => `${JSON.stringify(toJsonSchema(schema, { annotations }), null, 2)}\n`,
  ],
]);

async function exportSchema(args: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseCommand(args, {
    to: { type: 'string' },
    namespace: { type: 'string' },
    'root-name': { type: 'string' },
    annotations: { type: 'boolean' },
  });
  const annotations = values.annotations === true;
  if (annotations && values.to !== 'json-schema')
    throw usageError('--annotations goes with --to json-schema.');
  const exporter = values.to === undefined ? undefined : exporters.get(values.to);
  if (exporter === undefined) throw usageError(`--to must be one of ${[...exporters.keys()].join(', ')}.`);
  const file = onePositional(positionals, 'SCHEMA.json');
  if (isModuleFile(file)) {
    if (values.to !== 'proto')
      throw usageError('a module is read by --to proto; give the others a SCHEMA.json.');
    const declared = await schemaModuleExports(file);
    io.stdout.write(toProto(declared, { package: values.namespace, rootName: values['root-name'] }));
    return;
  }
  const source = file === '-' ? 'standard input' : file;
  const schema = schemaFromJson(parseJsonText((await readInput(io, file)).toString('utf8'), source));
  io.stdout.write(
    exporter(schema, { namespace: values.namespace, rootName: values['root-name'], annotations }),
  );
}

function onePositional(positionals: readonly string[], what: string): string {
  if (positionals.length > 1) throw usageError(`expected one ${what}, got ${positionals.length} arguments.`);
  return positionals[0] ?? '-';
}
