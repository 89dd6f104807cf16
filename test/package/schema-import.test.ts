/**
 * The user's path of issue 32, end to end, as README's "Schemas you already have" tells it: a team
 * holds an `order.proto` and a `user.avsc` that services in other languages share. In a project
 * that installed the packed package, `npx wirekit schema import order.proto --to ts --out
 * order.ts` writes a module; strict tsc compiles it with a program that imports it; the program's
 * bytes for an order are the bytes Python protobuf (from protoc's order_pb2 of the same file)
 * writes with deterministic serialization, and each reads the other's. The same for user.avsc with
 * fastavro. The other fixtures (names that clash once scopes are flattened, a recursive JSON
 * Schema) are written and compiled by the same tsc run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installPacked, type PackedProject, plainNodeEnv } from '../support/packed-package.js';
import { has, venvPython } from '../support/tools.js';
import { runUserTsc, userTypePackages } from '../support/user-tsc.js';

const fixtures = fileURLToPath(new URL('../fixtures/schema-import/', import.meta.url));
const peer = fileURLToPath(new URL('../support/peers/schema_import_peers.py', import.meta.url));

/**
 * The program a user writes beside the generated modules: its values are typed by them, and are
 * the ones the Python peer builds. `write DIR` writes each value's bytes; `read DIR` prints what it
 * decodes from the peer's bytes and what it expected, as JSON.
 */
const app = `import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAvroCodec } from 'wirekit-ts/avro';
import { createProtobufCodec } from 'wirekit-ts/protobuf';
import { Order } from './order.js';
import { User } from './user.js';

const order: Order = {
  id: 9007199254740993n,
  items: [
    { sku: 'A-1', quantity: 2, price_cents: -1250n },
    { sku: 'B-2', quantity: 1, price_cents: 99n },
  ],
  status: 'STATUS_PAID',
  labels: { channel: 3, gift: -1 },
  note: 'leave at the door',
  created_at: new Date('2026-12-06T23:00:00.123Z'),
  codes: [-7, 0, 2147483647],
};

const user: User = {
  id: 9007199254740993n,
  email: 'ada@example.com',
  nickname: null,
  role: 'MEMBER',
  tags: ['early', 'ops'],
  scores: { math: 1.5, art: -0.25 },
  joined: new Date('2026-12-06T23:00:00.123Z'),
};

const orders = createProtobufCodec<Order>({ schema: Order });
const users = createAvroCodec<User>({ schema: User });
const show = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? \`\${item}n\` : item));

const [mode, dir] = process.argv.slice(2) as [string, string];
if (mode === 'write') {
  writeFileSync(join(dir, 'order.wirekit.bin'), orders.encode(order));
  writeFileSync(join(dir, 'user.wirekit.bin'), users.encode(user));
} else {
  const readOrder = orders.decode(readFileSync(join(dir, 'order.python.bin')));
  const readUser = users.decode(readFileSync(join(dir, 'user.python.bin')));
  console.log(
    JSON.stringify({
      order: show(readOrder),
      expectedOrder: show(order),
      user: show(readUser),
      expectedUser: show(user),
    }),
  );
}
`;

describe.skipIf(!has('protoc') || !has('venv:fastavro'))(
  'schema import, the user’s path: a checked-in typed module whose bytes other languages read',
  () => {
    let project: PackedProject;
    let appDir: string;

    beforeAll(() => {
      project = installPacked({ alsoLink: userTypePackages });
      appDir = join(project.dir, 'app');
      mkdirSync(appDir);
      writeFileSync(join(appDir, 'package.json'), JSON.stringify({ type: 'module' }));
      for (const name of ['order.proto', 'user.avsc', 'names.proto', 'point.json']) {
        copyFileSync(join(fixtures, name), join(project.dir, name));
      }
    }, 300_000);

    afterAll(() => project?.remove());

    /** Python protobuf or fastavro, in `cwd`: `language mode path`; its printed line. */
    function python(cwd: string, ...args: string[]): string {
      const run = spawnSync(venvPython, [peer, ...args], { cwd, encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`peer ${args.join(' ')} failed: ${run.stderr}`);
      return run.stdout.trim();
    }

    test('the installed wirekit writes each module, strict tsc compiles them with a program that uses them', async () => {
      const imports: [string, string[]][] = [
        ['order.proto', []],
        ['user.avsc', []],
        ['names.proto', []],
        ['point.json', []],
      ];
      for (const [name, extra] of imports) {
        const out = join('app', name.replace(/\.\w+$/, '.ts'));
        const result = await project.runCli(['schema', 'import', name, '--to', 'ts', '--out', out, ...extra]);
        expect([result.code, result.stderr], name).toEqual([0, '']);
      }
      writeFileSync(join(appDir, 'main.ts'), app);
      const output = runUserTsc(project.dir, ['app/*.ts'], {
        noEmit: false,
        outDir: 'app/dist',
        rootDir: 'app',
      });
      expect(output).toBe('');
      // What the team checks in: the generated module, with the type of each named type.
      const order = readFileSync(join(appDir, 'order.ts'), 'utf8');
      expect(order).toContain('export type Order = Infer<typeof Order>;');
      expect(order).toContain("codes: t.array(t.int32({ proto: 'sfixed32' })),");
    }, 300_000);

    test('Python protobuf and fastavro read the program’s bytes, and write the same bytes it reads', () => {
      const node = (mode: string) =>
        execFileSync(process.execPath, [join(appDir, 'dist', 'main.js'), mode, project.dir], {
          cwd: project.dir,
          env: plainNodeEnv(),
          encoding: 'utf8',
        });
      node('write');
      execFileSync('protoc', ['-I', project.dir, `--python_out=${project.dir}`, 'order.proto'], {
        cwd: project.dir,
      });
      expect(python(project.dir, 'protobuf', 'check', 'order.wirekit.bin')).toBe('same');
      expect(python(project.dir, 'avro', 'check', 'user.wirekit.bin')).toBe('same');
      python(project.dir, 'protobuf', 'write', 'order.python.bin');
      python(project.dir, 'avro', 'write', 'user.python.bin');
      const bytes = (name: string) => readFileSync(join(project.dir, name));
      expect(bytes('order.wirekit.bin').equals(bytes('order.python.bin'))).toBe(true);
      expect(bytes('user.wirekit.bin').equals(bytes('user.python.bin'))).toBe(true);
      const read = JSON.parse(node('read'));
      // Key order is the decoder's own; the values are compared, not the text.
      expect(JSON.parse(read.order)).toEqual(JSON.parse(read.expectedOrder));
      expect(JSON.parse(read.user)).toEqual(JSON.parse(read.expectedUser));
    }, 120_000);
  },
);
