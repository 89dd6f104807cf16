/**
 * The CLI never answers input with a stack trace: a schema document nested thousands deep, flag
 * values named like members every object inherits (`constructor`, `toString`, `__proto__`), an Avro
 * container whose header is hostile. Each is refused with its error code (exit 1) or as a usage error
 * (exit 2); and should anything that is not a WirekitError still escape a command, main prints one
 * line that says it is a bug, instead of Node's stack.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { headerBytes } from '../../src/codecs/avro/container-format.js';
import { writeContainer } from '../../src/codecs/avro/index.js';
import { schemaToJson, t } from '../../src/index.js';
import { maxSchemaJsonDepth } from '../../src/schema/json-form.js';
import { cli } from '../support/cli.js';

const inherited = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

/** `{"kind":"array","items":…}` nested `depth` nodes deep, as text (JSON.stringify would recurse). */
function deepSchemaText(depth: number): string {
  const open = '{"kind":"array","items":'.repeat(depth - 1);
  return `{"format":"wirekit-schema","version":1,"root":${open}{"kind":"int32"}${'}'.repeat(depth - 1)}}`;
}

let dir: string;
let deep: string;
let deepest: string;
let schema: string;
let value: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wirekit-hostile-'));
  deep = join(dir, 'deep.json');
  deepest = join(dir, 'deepest.json');
  schema = join(dir, 'row.json');
  value = join(dir, 'value.json');
  await writeFile(deep, deepSchemaText(3000));
  await writeFile(deepest, deepSchemaText(maxSchemaJsonDepth));
  await writeFile(schema, JSON.stringify(schemaToJson(t.object('Row', { id: t.int32() }))));
  await writeFile(value, '{"id":1}');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a schema document nested 3,000 deep', () => {
  // Paths are known only once beforeAll has run, so each command is made inside its test.
  const commands: Record<string, () => string[]> = {
    'decode --schema': () => ['decode', '--format', 'json', '--schema', deep, '--in', value],
    'encode --schema': () => ['encode', '--format', 'msgpack', '--schema', deep, '--in', value],
    'inspect --schema': () => ['inspect', '--schema', deep, value],
    'schema export': () => ['schema', 'export', '--to', 'proto', deep],
    'bench --schema': () => ['bench', '--data', value, '--schema', deep, '--quick', '--formats', 'json'],
  };

  test.each(Object.keys(commands))('%s: WK_SCHEMA_JSON_INVALID, exit 1, one line', async (command) => {
    const result = await cli((commands[command] as () => string[])());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^wirekit: WK_SCHEMA_JSON_INVALID: \\$\\.root\\.items.*nests deeper than ${maxSchemaJsonDepth} schema nodes\\.\\n$`,
      ),
    );
  });

  test.each(['proto', 'avro', 'fbs', 'arrow', 'json-schema'])(
    'schema export --to %s prints a schema at the depth limit',
    async (to) => {
      const result = await cli(['schema', 'export', '--to', to, deepest]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.text.length).toBeGreaterThan(0);
    },
  );
});

describe('flag values named like inherited members are unknown names', () => {
  test.each([...inherited, 'scema'])(
    'wirekit %s --help is an unknown command (exit 2), as without --help',
    async (name) => {
      const result = await cli([name, '--help']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`WK_CLI_USAGE: unknown command ${name}.`);
      expect(result.stderr).not.toContain('[native code]');
      expect(result.text).toBe('');
    },
  );

  test.each(inherited)('schema export --to %s is a usage error', async (name) => {
    const result = await cli(['schema', 'export', '--to', name, schema]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'WK_CLI_USAGE: --to must be one of proto, avro, fbs, arrow, json-schema.',
    );
    expect(result.text).toBe('');
  });

  test.each(inherited)('--format, --compress, --datasets and --count %s are usage errors', async (name) => {
    for (const args of [
      ['encode', '--format', name, '--in', value],
      ['decode', '--format', name, '--in', value],
      ['inspect', '--format', name, value],
      ['encode', '--format', 'json', '--compress', name, '--in', value],
      ['bench', '--datasets', name, '--quick'],
      ['bench', '--count', `${name}=5`, '--quick', '--datasets', 'users', '--formats', 'json'],
      ['bench', '--formats', name, '--quick'],
    ]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain('WK_CLI_USAGE');
    }
  });
});

describe('encode refuses keys its decoder refuses', () => {
  test.each(['msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers', 'arrow'])(
    'encode --format %s of a json value with __proto__: refused as its JSON input is read, exit 1, no output',
    async (format) => {
      const docSchema = join(dir, 'doc.json');
      await writeFile(docSchema, JSON.stringify(schemaToJson(t.object('Doc', { data: t.json() }))));
      const input = '{"data":{"__proto__":{"polluted":"yes"}}}';
      const result = await cli(['encode', '--format', format, '--schema', docSchema], input);
      expect(result.code).toBe(1);
      // The JSON input is read by the schema first, which refuses the key as every decoder does
      // (the encoders' own refusal of it is tested in test/codecs/unsafe-keys-encode.test.ts).
      expect(result.stderr).toMatch(/^wirekit: WK_DECODE_UNSAFE_KEY: .*"__proto__" is refused/);
      expect(result.stdout.length).toBe(0);
      // The same input with the key renamed is written.
      const renamed = await cli(
        ['encode', '--format', format, '--schema', docSchema],
        input.replace('__proto__', 'proto'),
      );
      expect(renamed.stderr).toBe('');
      expect(renamed.code).toBe(0);
    },
  );
});

describe('a hostile Avro container header', () => {
  test('inspect refuses a writer schema nested 20,000 deep instead of overflowing printing it', async () => {
    const depth = 20_000;
    const junk = `${'{"type":"array","items":'.repeat(depth)}"int"${'}'.repeat(depth)}`;
    const text = `{"type":"record","name":"R","fields":[{"name":"junk","type":${junk}}]}`;
    const file = join(dir, 'deep.avro');
    await writeFile(file, headerBytes(text, 'null', new Uint8Array(16), {}));
    for (const args of [
      ['inspect', file],
      ['inspect', '--json', file],
    ]) {
      const result = await cli(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('WK_DECODE_MALFORMED: the embedded Avro schema nests deeper than 500');
    }
  });

  test('inspect shows metadata keys named __proto__ and constructor, which assignment would lose', async () => {
    const bytes = await writeContainer([{ id: 1 }], {
      schema: t.object('Row', { id: t.int32() }),
      metadata: JSON.parse('{"__proto__":"p","constructor":"c","app.origin":"test"}'),
    });
    const file = join(dir, 'metadata.avro');
    await writeFile(file, bytes);
    const result = await cli(['inspect', '--json', file]);
    expect(result.code).toBe(0);
    const { metadata } = JSON.parse(result.text).avroContainer;
    expect(Object.entries(metadata)).toEqual([
      ['__proto__', 'p'],
      ['constructor', 'c'],
      ['app.origin', 'test'],
    ]);
  });
});

describe('the last line of defence in main', () => {
  test('an error that is not a WirekitError is one line that says it is a bug, exit 1', async () => {
    let stderr = '';
    const io: CliIo = {
      stdin: (async function* () {})(),
      // A broken output stream: the command's own write throws what no input can cause.
      stdout: {
        write: () => {
          throw new TypeError('the output stream broke');
        },
      },
      stderr: { write: (chunk) => (stderr += chunk) },
    };
    const code = await run(['schema', 'export', '--to', 'proto', schema], io);
    expect(code).toBe(1);
    expect(stderr).toBe(
      'wirekit: internal error: TypeError: the output stream broke\n' +
        'This is a bug in wirekit, not in the input: please report it with the command line and input ' +
        '(set WIREKIT_DEBUG=1 to print the stack).\n',
    );
  });
});
