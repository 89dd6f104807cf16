/**
 * The WebSocket boundary against Python's `websockets` (Debian's 10.4) decoding and encoding every
 * frame with its own libraries (json, msgpack, cbor2, google.protobuf from the `.proto` wirekit
 * exports compiled by protoc, avro from the `.avsc` wirekit exports): test/support/peers/ws-python-peer.py.
 * For each protocol the peer reads a fixed list the server sends and has its own messages echoed
 * (the server decodes and validates them with wirekit first); it also offers no protocol, only
 * unknown ones, a malformed frame and an oversized one. The values are compared exactly, in the
 * schema's JSON form (timestamps as RFC 3339 text with milliseconds).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { wirekitSockets } from '../../../src/boundaries/ws/index.js';
import { type Infer, t, toJsonValue } from '../../../src/index.js';
import { toAvro, toProto } from '../../../src/schema/export/index.js';
import { has, python } from '../../support/tools.js';
import { echo as echoBack, listenSockets } from '../../support/ws.js';

const sides = ['buy', 'sell'] as const;
const Order = t.object('Order', {
  id: t.string({ maxLength: 40 }),
  price: t.float64(),
  qty: t.int32(),
  lot: t.uint32(),
  live: t.bool(),
  side: t.enumeration('Side', sides),
  at: t.timestamp(),
  note: t.optional(t.string()),
  legs: t.array(t.object('Leg', { venue: t.string(), size: t.int32() })),
});
type Order = Infer<typeof Order>;

/** What the server sends on /list: extremes of each kind, an absent and a present optional, an empty array. */
const list: Order[] = [
  {
    id: 'ord-1',
    price: 687.25,
    qty: -2147483648,
    lot: 4294967295,
    live: true,
    side: 'sell',
    at: new Date('2026-12-03T12:00:00.123Z'),
    note: 'fill or kill é 🚀',
    legs: [
      { venue: 'XAMS', size: 2147483647 },
      { venue: '', size: 0 },
    ],
  },
  {
    id: '',
    price: 0.1,
    qty: 0,
    lot: 0,
    live: false,
    side: 'buy',
    at: new Date('1969-12-31T23:59:59.999Z'),
    legs: [],
  },
  {
    id: 'ord-3',
    price: -1.7976931348623157e308,
    qty: 7,
    lot: 2147483648,
    live: true,
    side: 'buy',
    at: new Date('2038-01-19T03:14:08.001Z'),
    note: '',
    legs: [{ venue: 'XNYS', size: -1 }],
  },
];

/** What the peer writes with its own libraries, in the schema's JSON form. */
const echo = [
  {
    id: 'py-1',
    price: 5e-324,
    qty: 123456,
    lot: 3000000000,
    live: false,
    side: 'sell',
    at: '2001-09-09T01:46:40.500Z',
    note: 'from Python',
    legs: [{ venue: 'XLON', size: -42 }],
  },
  {
    id: 'py-2',
    price: -0.5,
    qty: -1,
    lot: 1,
    live: true,
    side: 'buy',
    at: '1970-01-01T00:00:00.000Z',
    legs: [],
  },
];

const protocols = ['wirekit.json', 'wirekit.msgpack', 'wirekit.cbor', 'wirekit.protobuf', 'wirekit.avro'];
const maxFrameBytes = 64 * 1024;
const peer = fileURLToPath(new URL('../../support/peers/ws-python-peer.py', import.meta.url));
const available =
  has('python:websockets') &&
  has('python:msgpack') &&
  has('python:cbor2') &&
  has('python:google.protobuf') &&
  has('python:avro') &&
  has('protoc');

interface Listed {
  readonly selected: string | null;
  readonly kinds: readonly string[];
  readonly received: readonly unknown[];
}
interface PeerResults {
  readonly protocols: Record<
    string,
    Listed & { readonly echo: { selected: string; kinds: string[]; echoed: unknown[] } }
  >;
  readonly none: Listed;
  readonly unknown: Partial<Listed> & { readonly raised: string | null };
  readonly malformed: { readonly code: number; readonly reason: string };
  readonly oversized: { readonly code: number; readonly reason: string };
}

let app: FastifyInstance;
let dir = '';
let results: PeerResults;

function runPeer(config: object): Promise<PeerResults> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [peer], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`the Python peer exited with ${code}:\n${stderr}`));
      else resolve(JSON.parse(stdout) as PeerResults);
    });
    child.stdin.end(JSON.stringify(config));
  });
}

describe.skipIf(!available)("wirekit sockets with Python's websockets", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wirekit-ws-python-'));
    writeFileSync(join(dir, 'order.proto'), toProto(Order));
    execFileSync('protoc', [`-I${dir}`, `--python_out=${dir}`, join(dir, 'order.proto')], { stdio: 'pipe' });
    app = Fastify();
    await app.register(wirekitSockets, { maxFrameBytes });
    app.wirekitSocket({
      url: '/echo',
      receive: Order,
      send: Order,
      handler: echoBack,
    });
    app.wirekitSocket({
      url: '/list',
      receive: Order,
      send: Order,
      handler: (connection) => {
        for (const message of list) connection.send(message);
      },
    });
    const base = await listenSockets(app);
    results = await runPeer({
      base,
      protocols,
      list: list.map((order) => toJsonValue(Order, order)),
      echo,
      protoDir: dir,
      protoModule: 'order_pb2',
      avroSchema: toAvro(Order),
      sideMembers: sides,
      maxFrameBytes,
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  const expected = list.map((order) => toJsonValue(Order, order));

  test.each(protocols)('%s: negotiated, frames of its kind, decoded by Python exactly', (protocol) => {
    const seen = results.protocols[protocol];
    expect(seen?.selected).toBe(protocol);
    const kind = protocol === 'wirekit.json' ? 'text' : 'binary';
    expect(seen?.kinds).toEqual(list.map(() => kind));
    expect(seen?.received).toEqual(expected);
  });

  test.each(protocols)(
    "%s: Python's own encoding decoded, validated and echoed by the server",
    (protocol) => {
      const seen = results.protocols[protocol]?.echo;
      expect(seen?.selected).toBe(protocol);
      expect(seen?.kinds).toEqual(echo.map(() => (protocol === 'wirekit.json' ? 'text' : 'binary')));
      expect(seen?.echoed).toEqual(echo);
    },
  );

  test('no subprotocol offered: JSON in text frames, none selected', () => {
    expect(results.none).toEqual({ selected: null, kinds: list.map(() => 'text'), received: expected });
  });

  test('only unknown subprotocols offered: the server selects none, and websockets 10.4 accepts that', () => {
    // RFC 6455 §4.1 has a client fail only when the server selects a protocol it did not offer;
    // websockets follows that to the letter (the `ws` package and browsers refuse the connection).
    // What the server does is the same either way: it selects none and speaks JSON in text frames.
    expect(results.unknown).toEqual({
      raised: null,
      selected: null,
      kinds: list.map(() => 'text'),
      received: expected,
    });
  });

  test('a malformed frame: closed with 1007 and the wirekit error code', () => {
    expect(results.malformed.code).toBe(1007);
    expect(results.malformed.reason).toMatch(/^WK_DECODE_/);
  });

  test('a frame over maxFrameBytes: closed with 1009', () => {
    expect(results.oversized.code).toBe(1009);
  });
});
