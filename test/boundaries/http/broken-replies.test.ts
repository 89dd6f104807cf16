/**
 * Replies that break off, through the fetch client on a real socket: a streamed route whose
 * connection the server destroys after some batches, a hand-written reply cut after a known number
 * of bytes, and an Arrow stream that ends cleanly at a message boundary without its end-of-stream
 * marker. Each is a WirekitError (WK_DECODE_TRUNCATED) from stream(), batches() and whole-body
 * reads alike, after every row that did arrive, over the global fetch and undici's; an abort the
 * caller asked for stays an abort.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type ClientOptions,
  createClient,
  wirekit,
  wirekitRoute,
} from '../../../src/boundaries/http/index.js';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { formatNames } from '../../../src/codecs/core/codec.js';
import { allFormats } from '../../../src/codecs/registry.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { t } from '../../../src/schema/index.js';

const Row = t.object('Row', { id: t.int32(), label: t.string() });
type Row = { id: number; label: string };
const rowAt = (i: number): Row => ({ id: i, label: `row ${i} ${'·'.repeat(i % 5)}` });

/** Rows sent before the server breaks the connection: three batches of 100. */
const sentBeforeBreak = 300;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An Arrow stream of 250 rows in batches of 100, and where its end-of-stream marker starts. */
const arrowBytes = createArrowCodec({ schema: Row, batchSize: 100 }).encode(
  Array.from({ length: 250 }, (_, i) => rowAt(i)),
);
const withoutEnd = arrowBytes.subarray(0, arrowBytes.length - 8);
/** Bytes the hand-written reply sends before it breaks: part of the way into the second batch. */
const cutAt = 3000;

let app: FastifyInstance;
let baseUrl: string;
beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(wirekit);
  app.route(
    wirekitRoute({
      method: 'GET',
      url: '/breaks',
      stream: Row,
      batchSize: 100,
      handler: async (request) =>
        (async function* () {
          for (let i = 0; i < 1000; i++) {
            if (i === sentBeforeBreak) {
              // The rows so far handed to the kernel (TCP delivers them before the close), then
              // a while for the client to read them, then the connection goes. A fixed pause alone
              // lost the race on a loaded machine: the close came before any byte was written.
              const socket = request.raw.socket;
              for (
                let waited = 0;
                waited < 5_000 && (socket.bytesWritten === 0 || socket.writableLength > 0);
                waited += 10
              )
                await pause(10);
              await pause(100);
              socket.destroy();
              await pause(100);
            }
            yield rowAt(i);
          }
        })(),
    }),
  );
  // A reply written by hand: `cutAt` bytes of an Arrow stream, then the socket destroyed.
  app.get('/cut', (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/vnd.apache.arrow.stream' });
    reply.raw.write(arrowBytes.subarray(0, cutAt));
    setTimeout(() => reply.raw.socket?.destroy(), 100);
  });
  // Every batch and a clean end, but no end-of-stream marker.
  app.get('/unended', (_request, reply) => {
    reply.type('application/vnd.apache.arrow.stream').send(Buffer.from(withoutEnd));
  });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

/** What a call threw, and how many rows it had yielded first. */
async function outcome<T>(items: AsyncIterable<T>): Promise<{ seen: T[]; error: unknown }> {
  const seen: T[] = [];
  try {
    for await (const item of items) seen.push(item);
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error };
  }
}

function expectBrokenOff(error: unknown): number {
  expect(isWirekitError(error, 'WK_DECODE_TRUNCATED'), String(error)).toBe(true);
  const match = /the reply broke off after (\d+) bytes/.exec((error as Error).message);
  expect(match, (error as Error).message).not.toBeNull();
  const received = Number(match?.[1]);
  expect((error as { offset?: number }).offset).toBe(received);
  expect((error as Error).cause).toBeInstanceOf(TypeError);
  return received;
}

const fetches: [string, ClientOptions['fetch']][] = [
  ['global fetch', undefined],
  ['undici', undiciFetch as unknown as typeof fetch],
];

describe.each(fetches)('%s', (_name, fetchImpl) => {
  describe.each(formatNames)('%s', (format) => {
    const client = () =>
      createClient({ baseUrl, codecs: allFormats, format, ...(fetchImpl && { fetch: fetchImpl }) });

    test('stream() yields every row that arrived, then WK_DECODE_TRUNCATED', async () => {
      const { seen, error } = await outcome(client().stream('/breaks', { row: Row }));
      expect(expectBrokenOff(error)).toBeGreaterThan(0);
      expect(seen).toEqual(Array.from({ length: sentBeforeBreak }, (_, i) => rowAt(i)));
    });

    test('a whole-body read is WK_DECODE_TRUNCATED', async () => {
      const error = await client()
        .get('/breaks', { reply: t.array(Row) })
        .catch((e: unknown) => e);
      expect(expectBrokenOff(error)).toBeGreaterThan(0);
    });
  });

  describe('arrow', () => {
    const client = () =>
      createClient({ baseUrl, codecs: allFormats, format: 'arrow', ...(fetchImpl && { fetch: fetchImpl }) });

    test('batches() yields the batches that arrived, then WK_DECODE_TRUNCATED', async () => {
      const { seen, error } = await outcome(client().batches('/breaks', { row: Row }));
      expectBrokenOff(error);
      expect(seen.map((batch) => batch.numRows)).toEqual([100, 100, 100]);
      expect(seen[2]?.getChild('label')?.get(99)).toBe(rowAt(299).label);
    });

    test('the message names exactly the bytes that arrived', async () => {
      for (const read of [
        () => outcome(client().batches('/cut', { row: Row })),
        () => outcome(client().stream('/cut', { row: Row })),
        async () => ({
          seen: [],
          error: await client()
            .get('/cut', { reply: t.array(Row) })
            .catch((e: unknown) => e),
        }),
      ]) {
        const { error } = await read();
        expect(expectBrokenOff(error)).toBe(cutAt);
      }
      // The first batch was whole: it arrives before the break.
      const { seen } = await outcome(client().stream('/cut', { row: Row }));
      expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => rowAt(i)));
    });

    test('a stream that ends without its end-of-stream marker is WK_DECODE_TRUNCATED', async () => {
      const batches = await outcome(client().batches('/unended', { row: Row }));
      expect(batches.seen.map((batch) => batch.numRows)).toEqual([100, 100, 50]);
      const rows = await outcome(client().stream('/unended', { row: Row }));
      expect(rows.seen).toHaveLength(250);
      const whole = await client()
        .get('/unended', { reply: t.array(Row) })
        .catch((e: unknown) => e);
      for (const error of [batches.error, rows.error, whole]) {
        expect(isWirekitError(error, 'WK_DECODE_TRUNCATED'), String(error)).toBe(true);
        expect((error as Error).message).toContain('no end-of-stream marker');
        expect((error as Error).message).toContain(`at byte ${withoutEnd.length}`);
      }
    });

    test("an abort the caller asked for is the signal's reason, not a decode error", async () => {
      const aborter = new AbortController();
      const reason = new Error('the user left the page');
      const { seen, error } = await outcome(
        (async function* () {
          for await (const batch of client().batches('/breaks', { row: Row, signal: aborter.signal })) {
            yield batch;
            aborter.abort(reason);
          }
        })(),
      );
      // Batches already in hand are still yielded; the next read ends with the abort.
      expect(seen.length).toBeLessThanOrEqual(3);
      expect(error).toBe(reason);
    });
  });
});
