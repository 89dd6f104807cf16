/**
 * The README's WebSocket example runs: started as `npm run example:ws -- --port 0` starts it (tsx,
 * a free port, printed), it streams valid ticks at about 100 a second in the format a raw `ws`
 * client negotiates (JSON text frames with no protocol, MessagePack binary frames), echoes a tick
 * sent to it, its page decodes every format in Chromium, `sizes.ts` reads every format off it, and
 * SIGTERM stops it cleanly.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { Tick, tickSource } from '../../examples/ws/tick.js';
import { createCodec } from '../../src/codecs/registry.js';
import { chromiumArgs, chromiumPath, has } from '../support/tools.js';

/** What the page keeps on `window.wirekitTicks`, per format. */
type Views = Record<
  string,
  { state: string; received: number; bytesPerMessage: number; last: string; echoes: number }
>;

const run = promisify(execFile);
let child: ChildProcess;
let port = 0;

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'examples/ws/main.ts', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`the example exited with ${code}: ${output}`)));
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString();
      const match = /listening on ws:\/\/127\.0\.0\.1:(\d+)\/ws/.exec(output);
      if (match) resolve(Number(match[1]));
    });
  });
}, 90_000);

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

interface Received {
  readonly protocol: string;
  readonly frames: { readonly data: Buffer; readonly isBinary: boolean }[];
  readonly ms: number;
}

/** Connects with `protocols`, sends `send` once open, and collects `count` frames. */
function collect(protocols: string[], count: number, send?: Uint8Array | string): Promise<Received> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, protocols);
    const frames: Received['frames'] = [];
    let started = 0;
    socket.on('open', () => {
      started = performance.now();
      if (send !== undefined) socket.send(send, { binary: typeof send !== 'string' });
    });
    socket.on('message', (data: Buffer, isBinary) => {
      frames.push({ data, isBinary });
      if (frames.length === count) {
        resolve({ protocol: socket.protocol, frames, ms: performance.now() - started });
        socket.close();
      }
    });
    socket.on('error', reject);
    socket.on('close', (code) => {
      if (frames.length < count) reject(new Error(`closed with ${code} after ${frames.length} frames`));
    });
  });
}

describe('npm run example:ws', () => {
  test('no protocol: valid JSON ticks in text frames, about 100 a second', async () => {
    const { protocol, frames, ms } = await collect([], 50);
    expect(protocol).toBe('');
    const json = createCodec('json', { schema: Tick, validate: true });
    const sequences = frames.map((frame) => {
      expect(frame.isBinary).toBe(false);
      return json.decode(new Uint8Array(frame.data)).sequence;
    });
    expect(sequences).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // 50 ticks at 100/s take ~0.5 s: far less would mean no pacing, far more no streaming.
    expect(ms).toBeGreaterThan(300);
    expect(ms).toBeLessThan(5_000);
  });

  test('wirekit.msgpack: binary frames, and a tick sent comes back', async () => {
    const msgpack = createCodec('msgpack', { schema: Tick, validate: true });
    const sent = { ...tickSource(99)(new Date('2026-12-04T12:00:00.000Z')), sequence: 4_000_000_000 };
    const { protocol, frames } = await collect(['wirekit.msgpack'], 30, msgpack.encode(sent));
    expect(protocol).toBe('wirekit.msgpack');
    const ticks = frames.map((frame) => {
      expect(frame.isBinary).toBe(true);
      return msgpack.decode(new Uint8Array(frame.data));
    });
    expect(ticks).toContainEqual(sent);
    expect(ticks.filter((tick) => tick.sequence !== sent.sequence).length).toBeGreaterThan(20);
  });

  test.skipIf(!has('chromium'))(
    'the page in Chromium: a client per format decodes the ticks, binary ones smaller, echoes come back',
    async () => {
      const browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        await page.goto(`http://127.0.0.1:${port}/`);
        const views = () => page.evaluate<Views>('window.wirekitTicks');
        await expect
          .poll(async () => Math.min(...Object.values(await views()).map((view) => view.received)), {
            timeout: 15_000,
          })
          .toBeGreaterThan(30);
        await page.click('#echo');
        await expect
          .poll(async () => Object.values(await views()).every((view) => view.echoes === 1), {
            timeout: 10_000,
          })
          .toBe(true);
        const shown = await views();
        expect(Object.keys(shown)).toEqual(['json', 'msgpack', 'cbor', 'protobuf', 'avro']);
        const json = createCodec('json', { schema: Tick, validate: true });
        for (const [format, view] of Object.entries(shown)) {
          expect(view.state, format).toBe('open');
          // What the page shows as the last tick is a valid tick, decoded from the format's frames.
          expect(() => json.decode(new TextEncoder().encode(view.last)), format).not.toThrow();
          if (format !== 'json')
            expect(view.bytesPerMessage, format).toBeLessThan(shown.json?.bytesPerMessage ?? 0);
        }
        // The sizes the page counted are those the codecs write: a tick is 150-170 bytes of JSON.
        expect(shown.json?.bytesPerMessage).toBeGreaterThan(150);
        expect(shown.json?.bytesPerMessage).toBeLessThan(170);
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );

  test('sizes.ts reads every format: each binary one smaller than JSON', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'examples/ws/sizes.ts', '--port', String(port), '--count', '50'],
      { timeout: 20_000 },
    );
    const size = (format: string) =>
      Number(new RegExp(`^${format}\\s+([\\d.]+)`, 'm').exec(stdout)?.[1] ?? Number.NaN);
    const json = size('json');
    expect(json).toBeGreaterThan(100);
    for (const format of ['msgpack', 'cbor', 'protobuf', 'avro']) {
      expect(size(format)).toBeGreaterThan(0);
      expect(size(format)).toBeLessThan(json);
    }
  });

  test('SIGTERM stops it cleanly, with open sockets', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await new Promise((resolve) => socket.once('message', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The plugin closes each socket with 1001 (going away) on shutdown.
    expect(await closed).toBe(1001);
  });
});
