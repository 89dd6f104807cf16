/**
 * The commands of README.md's opening block run as a reader runs them, or in a reduced form where
 * the whole would take minutes. The commands are read from the block itself, so a line added
 * there fails here until `howToRun` says how it is run, or why only its `--help` (or its syntax)
 * is checked. Servers start on a free port, are probed, and stopped.
 *
 * Nothing here runs `npm run build` (which deletes dist/ under every other test running): the
 * suite's own pretest built it, and the reduced forms run what the build made.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { codeBlocks, docBlocks } from '../support/doc-blocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const node = process.execPath;

/** The opening block's commands, each without its trailing comment. */
function openingCommands(): string[] {
  const block = codeBlocks('README.md', readFileSync(join(root, 'README.md'), 'utf8')).find(
    (candidate) => candidate.lang === 'sh',
  );
  if (block === undefined) throw new Error('README.md has no sh block');
  return block.code
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '');
}

/** Runs `args` to its end in the repository, resolving with its output (rejecting on a non-zero exit). */
async function output(command: string, args: readonly string[]): Promise<string> {
  const { stdout, stderr } = await run(command, args, { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  return `${stdout}${stderr}`;
}

/** Starts `args`, resolves with the first match of `ready` in its stdout, and a stop that waits for its exit. */
function start(
  args: readonly string[],
  ready: RegExp,
): Promise<{ match: RegExpExecArray; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(node, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (data: Buffer) => (seen += data.toString()));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} first:\n${seen}`)));
    child.stdout?.on('data', (data: Buffer) => {
      seen += data.toString();
      const match = ready.exec(seen);
      if (match !== null) resolve({ match, stop });
    });
  });
}

const help = (script: string) => async () => {
  expect(await output(node, [script, '--help'])).toMatch(/^Usage: /m);
};

interface Way {
  /** How the line is run here, and why that way. */
  readonly how: string;
  readonly check: () => Promise<void>;
}

/** Each line of README's opening block (its comment left out): how it is run here. */
const howToRun: Readonly<Record<string, Way>> = {
  'npm ci && npm run build && npm start': {
    how: 'npm start (node dist/cli/main.js bench) on one dataset and two formats, --quick: the whole is minutes; npm ci and the build are what the suite stands on',
    check: async () => {
      const text = await output(node, [
        'dist/cli/main.js',
        'bench',
        '--quick',
        '--datasets',
        'users',
        '--formats',
        'json,msgpack',
      ]);
      expect(text).toMatch(/^users: .* items/m);
      expect(text).toMatch(/^msgpack .* lossless$/m);
    },
  },
  'npm test': {
    how: 'the suite this test is part of: only its runner answers --help',
    check: async () =>
      expect(await output(node, ['node_modules/vitest/vitest.mjs', '--help'])).toMatch(/vitest/),
  },
  'npm run test:unit': {
    how: "the suite's unit tier: its project is listed (vitest list --project unit)",
    check: async () => {
      const text = await output(node, [
        'node_modules/vitest/vitest.mjs',
        'list',
        '--project',
        'unit',
        '--filesOnly',
        'test/docs/',
      ]);
      expect(text).toContain('test/docs/readme-commands.test.ts');
    },
  },
  'bash .ci/run': {
    how: 'installs system packages as root, then everything: its syntax is checked (bash -n)',
    check: async () => {
      await output('bash', ['-n', '.ci/run']);
    },
  },
  'npm run deadcode': {
    how: 'a minute of knip, which .ci/run runs itself: knip answers --help',
    check: async () =>
      expect(await output(node, ['node_modules/knip/bin/knip.js', '--help'])).toMatch(/knip/),
  },
  'npm run demo': {
    how: 'the dashboard server on a free port with one month of data in a temp folder (24 months take a minute to generate); GET /meta answers',
    check: async () => {
      const data = mkdtempSync(join(tmpdir(), 'wirekit-demo-'));
      const server = await start(
        ['--import', 'tsx', 'examples/dashboard/server.ts', '--port', '0', '--months', '1', '--data', data],
        /on (http:\/\/127\.0\.0\.1:\d+)/,
      );
      try {
        const meta = await fetch(`${server.match[1]}/meta`);
        expect(meta.status).toBe(200);
        expect(await meta.json()).toHaveProperty('to');
      } finally {
        await server.stop();
        rmSync(data, { recursive: true, force: true });
      }
    },
  },
  'npm run build && npm run bench:cache': {
    how: 'minutes on a redis-server it starts: answers --help',
    check: help('build/benchmarks/cache/main.js'),
  },
  'npm run build && npm run bench:events': {
    how: 'minutes on a Kafka broker it starts: answers --help',
    check: help('build/benchmarks/events/main.js'),
  },
  'npm run example:ws -- --port 3000': {
    how: 'the example after its build step (tsx examples/ws/main.ts) on a free port: a client gets a tick, SIGTERM stops it',
    check: async () => {
      const server = await start(
        ['--import', 'tsx', 'examples/ws/main.ts', '--port', '0'],
        /listening on (ws:\/\/\S+)/,
      );
      try {
        const tick = await new Promise<string>((resolve, reject) => {
          const socket = new WebSocket(server.match[1] as string);
          socket.once('error', reject);
          socket.once('message', (data) => {
            socket.close();
            resolve(data.toString());
          });
        });
        expect(JSON.parse(tick)).toHaveProperty('symbol');
      } finally {
        await server.stop();
      }
    },
  },
  'npm run example:rpc -- --port 50051': {
    how: 'the example after its build step (tsx examples/rpc/main.ts) on a free port: a Connect call in ProtoJSON, SIGTERM stops it (test/examples/rpc-example.test.ts calls it from grpcurl, grpc-js and Python)',
    check: async () => {
      const server = await start(
        ['--import', 'tsx', 'examples/rpc/main.ts', '--port', '0'],
        /OrderService on (http:\/\/[\d.]+:\d+)/,
      );
      try {
        const response = await fetch(`${server.match[1]}/shop.v1.OrderService/GetOrder`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"id":"2"}',
        });
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ id: '2', totalCents: '9007199254740993' });
      } finally {
        await server.stop();
      }
    },
  },
  'npm run example:gateway': {
    how: 'the example after its build step (tsx examples/gateway/main.ts) on free ports: a REST read crosses the gRPC hop, SIGTERM stops it',
    check: async () => {
      const server = await start(
        ['--import', 'tsx', 'examples/gateway/main.ts', '--port', '0', '--internal-port', '0'],
        /public JSON gateway on (http:\/\/\S+)/,
      );
      try {
        const response = await fetch(`${server.match[1]}/v1/orders/2`);
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ id: '2', totalCents: '9007199254740993' });
      } finally {
        await server.stop();
      }
    },
  },
  'npm run build && npm run bench:ws': {
    how: 'minutes of load at three client counts: answers --help',
    check: help('build/benchmarks/ws/main.js'),
  },
  'npm run build && npm run bench:rpc': {
    how: 'minutes of load, each case in fresh processes (its tiny run is benchmarks/rpc/main.test.ts): answers --help',
    check: help('build/benchmarks/rpc/main.js'),
  },
  'npm run build && npm run bench:gateway': {
    how: 'minutes of load, each case in fresh processes (its tiny run is benchmarks/gateway/main.test.ts): answers --help',
    check: help('build/benchmarks/gateway/main.js'),
  },
  'node dist/cli/main.js registry serve --port 8081': {
    how: 'on a free port (--port 0): GET /subjects answers [], SIGTERM stops it',
    check: async () => {
      const server = await start(
        ['dist/cli/main.js', 'registry', 'serve', '--port', '0'],
        /^(http:\/\/127\.0\.0\.1:\d+)/m,
      );
      try {
        const subjects = await fetch(`${server.match[1]}/subjects`);
        expect(await subjects.json()).toEqual([]);
      } finally {
        await server.stop();
      }
    },
  },
};

/**
 * The wirekit command each `npx -p wirekit-ts wirekit …` line of the docs' sh blocks runs: its
 * leading words that are plain names (`schema infer`, `inspect`), at most two; '' for the bare CLI.
 */
function documentedCliCommands(): Map<string, string> {
  const commands = new Map<string, string>();
  for (const block of docBlocks(root).filter((candidate) => candidate.lang === 'sh')) {
    block.code.split('\n').forEach((line, index) => {
      const match = /^npx -p wirekit-ts wirekit\b(.*)$/.exec(line.trim());
      if (match === null) return;
      const words: string[] = [];
      for (const word of (match[1] as string).trim().split(/\s+/)) {
        if (words.length === 2 || !/^[a-z][a-z-]*$/.test(word)) break;
        words.push(word);
      }
      const command = words.join(' ');
      if (!commands.has(command)) commands.set(command, `${block.file}:${block.line + index}`);
    });
  }
  return commands;
}

describe('the wirekit commands the docs give', () => {
  const commands = documentedCliCommands();

  test('are found in the docs', () => {
    expect([...commands.keys()]).toEqual(
      expect.arrayContaining(['bench', 'schema infer', 'inspect', 'registry serve']),
    );
  });

  // An unknown command's --help prints the general help and exits 0, so the usage must name it.
  test.each([...commands])('%s (first at %s) answers --help with its own usage', async (command) => {
    const args = command === '' ? ['--help'] : [...command.split(' '), '--help'];
    const text = await output(node, ['dist/cli/main.js', ...args]);
    expect(text).toMatch(
      command === '' ? /^Commands:/m : new RegExp(`^\\s+wirekit ${command}\\b(?!\\s{2})`, 'm'),
    );
  });
});

describe("README's opening commands", () => {
  const commands = openingCommands();

  test('every line of the block has a way to run it here', () => {
    expect(commands.filter((command) => !(command in howToRun))).toEqual([]);
    expect(Object.keys(howToRun).filter((command) => !commands.includes(command))).toEqual([]);
  });

  test.each(commands.filter((command) => command in howToRun))(
    '%s',
    async (command) => {
      await (howToRun[command] as Way).check();
    },
    180_000,
  );
});
