/**
 * `wirekit inspect --ws-frame`: frames written by the real `ws` library, captured off a TCP socket
 * in both directions (a ws client writing to a raw net.Server is masked, a ws server writing to a
 * raw socket is not), read back to the values sent, in every socket format; and hostile frames,
 * each refused with its code and exit status. `--format wirekit.<format>` is the same as the
 * format's own name.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { SocketFormat } from '../../src/boundaries/ws/frames.js';
import { createCodec } from '../../src/codecs/registry.js';
import { encodeEnvelopedAsync } from '../../src/envelope/index.js';
import { schemaToJson, t, toJsonValue } from '../../src/index.js';
import { formatOfSubprotocol } from '../../src/negotiate/subprotocol.js';
import { cli, fields } from '../support/cli.js';
import { wsFrame } from '../support/ws-sender.js';

const Tick = t.object('Tick', { id: t.int32(), symbol: t.string(), price: t.float64(), note: t.string() });
const tick = { id: 7, symbol: 'ACME', price: 101.25, note: '' };

let dir: string;
let schemaPath: string;
beforeAll(async () => {
  dir = await mkdtemp(`${tmpdir()}/wirekit-ws-frame-`);
  schemaPath = `${dir}/tick.schema.json`;
  await writeFile(schemaPath, JSON.stringify(schemaToJson(Tick)));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The bytes of one frame on the wire: header, extended length, masking key, payload. */
function frameSize(payload: number, masked: boolean): number {
  return 2 + (payload < 126 ? 0 : payload < 65536 ? 2 : 8) + (masked ? 4 : 0) + payload;
}

const acceptOf = (key: string) =>
  createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');

/** Resolves with `want` bytes read after the HTTP head (or all there were, when the socket ends). */
function readAfterHead(socket: Socket, want: number, onHead?: (head: string) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    let body: Buffer | undefined;
    const done = () => {
      socket.destroy();
      resolve(body ?? Buffer.alloc(0));
    };
    socket.on('data', (chunk: Buffer) => {
      if (body === undefined) {
        buffered = Buffer.concat([buffered, chunk]);
        const end = buffered.indexOf('\r\n\r\n');
        if (end === -1) return;
        onHead?.(buffered.subarray(0, end).toString('latin1'));
        body = buffered.subarray(end + 4);
      } else {
        body = Buffer.concat([body, chunk]);
      }
      if (body.length >= want) done();
    });
    socket.on('end', done);
    socket.on('error', reject);
  });
}

/**
 * What a real ws client writes (masked, as RFC 6455 requires of clients) to a raw TCP server that
 * answers its handshake by hand: `want` bytes of frames after the handshake.
 */
async function captureFromClient(
  protocol: string | undefined,
  want: number,
  send: (ws: WebSocket) => void,
): Promise<Buffer> {
  const server = createServer();
  const captured = new Promise<Buffer>((resolve, reject) => {
    server.on('connection', (socket) => {
      readAfterHead(socket, want, (head) => {
        const key = /sec-websocket-key: *(\S+)/i.exec(head)?.[1] ?? '';
        socket.write(
          `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptOf(key)}\r\n${protocol === undefined ? '' : `Sec-WebSocket-Protocol: ${protocol}\r\n`}\r\n`,
        );
      }).then(resolve, reject);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, protocol === undefined ? [] : [protocol], {
    perMessageDeflate: false,
  });
  ws.on('error', () => {});
  ws.on('open', () => send(ws));
  try {
    return await captured;
  } finally {
    ws.terminate();
    server.close();
  }
}

/** What a real ws server writes (unmasked) to a raw TCP client that did the handshake by hand. */
async function captureFromServer(
  protocol: string | undefined,
  want: number,
  send: (ws: WebSocket) => void,
): Promise<Buffer> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (ws) => send(ws));
  const { port } = wss.address() as { port: number };
  const socket = createConnection({ port, host: '127.0.0.1' });
  socket.write(
    `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${protocol === undefined ? '' : `Sec-WebSocket-Protocol: ${protocol}\r\n`}\r\n`,
  );
  try {
    return await readAfterHead(socket, want);
  } finally {
    socket.destroy();
    for (const client of wss.clients) client.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
}

const inspect = (bytes: Uint8Array, ...flags: string[]) =>
  cli(['inspect', '-', '--ws-frame', ...flags], bytes);

/** The --json report of a capture. */
async function inspectJson(bytes: Uint8Array, ...flags: string[]) {
  const result = await inspect(bytes, '--json', ...flags);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.text) as {
    frames: number;
    messages: {
      wsFrame: Record<string, unknown>;
      format: string;
      value: unknown;
      decoded: boolean;
      guess?: string;
    }[];
    controls: Record<string, unknown>[];
  };
}

const formats: readonly SocketFormat[] = ['json', 'msgpack', 'cbor', 'protobuf', 'avro'];

describe('frames captured from a real ws peer, every socket format', () => {
  test.each(formats)('%s, both directions: the value sent', async (format) => {
    const codec = createCodec(format, { schema: Tick });
    const payload = Buffer.from(codec.encode(tick));
    const protocol = `wirekit.${format}`;
    // The ws boundary sends JSON's bytes in text frames, the binary formats in binary frames.
    const binary = format !== 'json';
    const sendTwice = (ws: WebSocket) => {
      ws.send(payload, { binary });
      ws.send(payload, { binary });
    };
    const schemaFlags = format === 'protobuf' || format === 'avro' ? ['--schema', schemaPath] : [];
    for (const [masked, capture] of [
      [true, captureFromClient],
      [false, captureFromServer],
    ] as const) {
      const bytes = await capture(protocol, 2 * frameSize(payload.length, masked), sendTwice);
      const report = await inspectJson(bytes, '--format', protocol, ...schemaFlags);
      expect(report.frames).toBe(2);
      expect(report.controls).toEqual([]);
      expect(report.messages).toHaveLength(2);
      for (const [i, message] of report.messages.entries()) {
        expect(message.wsFrame).toEqual({
          message: i + 1,
          of: 2,
          frame: i,
          opcode: binary ? 'binary' : 'text',
          masked,
          fragments: 1,
          payloadBytes: payload.length,
          frameBytes: frameSize(payload.length, masked),
        });
        expect(message.format).toBe(format);
        expect(message.value).toEqual(
          schemaFlags.length > 0 ? toJsonValue(Tick, tick) : JSON.parse(JSON.stringify(tick)),
        );
      }
    }
  });

  test.each([125, 126, 65536])(
    'a %i-byte payload (7-bit, 16-bit, 64-bit length), both directions',
    async (size) => {
      // A msgpack map whose string is sized so that the payload is exactly `size` bytes.
      const codec = createCodec('msgpack', {});
      let note = '';
      let payload = Buffer.from(codec.encode({ note }));
      for (let n = size; n >= 0 && payload.length !== size; n--) {
        note = 'x'.repeat(n);
        payload = Buffer.from(codec.encode({ note }));
      }
      expect(payload.length).toBe(size);
      for (const [masked, capture] of [
        [true, captureFromClient],
        [false, captureFromServer],
      ] as const) {
        const bytes = await capture('wirekit.msgpack', frameSize(size, masked), (ws) => ws.send(payload));
        expect(bytes.length).toBe(frameSize(size, masked));
        const report = await inspectJson(bytes, '--format', 'wirekit.msgpack');
        expect(report.messages[0]?.wsFrame).toMatchObject({ masked, payloadBytes: size, fragments: 1 });
        expect(report.messages[0]?.value).toEqual({ note });
      }
    },
  );

  test("a fragmented message (ws's fin: false) is joined; a ping between fragments is listed, not decoded", async () => {
    const codec = createCodec('cbor', { schema: Tick });
    const payload = Buffer.from(codec.encode({ ...tick, note: 'n'.repeat(300) }));
    const parts = [payload.subarray(0, 100), payload.subarray(100, 250), payload.subarray(250)];
    for (const [masked, capture] of [
      [true, captureFromClient],
      [false, captureFromServer],
    ] as const) {
      const want =
        parts.reduce((sum, part) => sum + frameSize(part.length, masked), 0) + frameSize(2, masked);
      const bytes = await capture('wirekit.cbor', want, (ws) => {
        const [first, second, last] = parts as [Buffer, Buffer, Buffer];
        ws.send(first, { binary: true, fin: false });
        ws.ping(Buffer.from('hi'));
        ws.send(second, { binary: true, fin: false });
        ws.send(last, { binary: true, fin: true });
      });
      const report = await inspectJson(bytes, '--format', 'cbor');
      expect(report.frames).toBe(4);
      expect(report.messages).toHaveLength(1);
      expect(report.messages[0]?.wsFrame).toMatchObject({
        opcode: 'binary',
        masked,
        fragments: 3,
        payloadBytes: payload.length,
        frameBytes: want - frameSize(2, masked),
      });
      expect(report.messages[0]?.value).toEqual({ ...tick, note: 'n'.repeat(300) });
      expect(report.controls).toEqual([
        { frame: 1, opcode: 'ping', masked, payloadBytes: 2, data: Buffer.from('hi').toString('hex') },
      ]);
    }
  });

  test('a text frame is JSON without --format; a close frame says its code and reason', async () => {
    const text = JSON.stringify({ hello: 'world', n: [1, 2] });
    const closeSize = frameSize(2 + 'bye'.length, true);
    const bytes = await captureFromClient(undefined, frameSize(text.length, true) + closeSize, (ws) => {
      ws.send(text);
      ws.close(1000, 'bye');
    });
    const result = await inspect(bytes);
    expect(result.code).toBe(0);
    const shown = fields(result.text);
    expect(shown['ws frames']).toBe('2 frames: 1 message, 1 control frame');
    expect(shown['ws message']).toBe(
      `1 of 1: frame 0, text, masked, 1 fragment, ${text.length} payload bytes (${frameSize(text.length, true)} on the wire)`,
    );
    expect(shown.format).toBe('json');
    expect(shown['ws control']).toBe('frame 1: close, masked, code 1000, reason "bye"');
    expect(result.text).toContain('"hello": "world"');
    const report = await inspectJson(bytes);
    expect(report.controls).toEqual([
      { frame: 1, opcode: 'close', masked: true, payloadBytes: 5, code: 1000, reason: 'bye' },
    ]);
  });

  test('a binary frame without --format is sniffed like any payload: an envelope describes itself', async () => {
    const payload = Buffer.from(await encodeEnvelopedAsync(createCodec('msgpack', { schema: Tick }), tick));
    const bytes = await captureFromServer('wirekit.msgpack', frameSize(payload.length, false), (ws) =>
      ws.send(payload),
    );
    const report = await inspectJson(bytes);
    expect(report.messages[0]).toMatchObject({ detected: 'envelope', format: 'msgpack', value: tick });
    // Plain MessagePack has no signature: without --format it is guessed, and said to be a guess.
    const plain = wsFrame(createCodec('msgpack', {}).encode(tick), frameOptions(2));
    const guessed = await inspectJson(plain);
    expect(guessed.messages[0]).toMatchObject({ sniffed: ['msgpack'], format: 'msgpack', value: tick });
    expect(guessed.messages[0]?.guess).toMatch(/^guessed msgpack: .*pass --format F/);
    // Bytes no format reads whole are still refused, with the flags to pass.
    const unsniffed = await inspect(wsFrame(Uint8Array.of(0xc1, 0xff, 0xff), frameOptions(2)));
    expect(unsniffed.code).toBe(1);
    expect(unsniffed.stderr).toMatch(
      /^wirekit: WK_ENVELOPE_INVALID: WebSocket message 1 \(frame 0\): .*--format F/,
    );
  });
});

describe('--format wirekit.<format>', () => {
  test('formatOfSubprotocol is the prefix rule alone', () => {
    expect(formatOfSubprotocol('wirekit.msgpack')).toBe('msgpack');
    expect(formatOfSubprotocol('wirekit.x')).toBe('x');
    expect(formatOfSubprotocol('wirekit.')).toBeUndefined();
    expect(formatOfSubprotocol('msgpack')).toBeUndefined();
    expect(formatOfSubprotocol('graphql-ws')).toBeUndefined();
  });

  test('is the same as the format, with or without --ws-frame', async () => {
    const bytes = createCodec('msgpack', {}).encode(tick);
    const named = await cli(['inspect', '-', '--format', 'wirekit.msgpack', '--json'], bytes);
    const plain = await cli(['inspect', '-', '--format', 'msgpack', '--json'], bytes);
    expect(named.code).toBe(0);
    expect(named.text).toBe(plain.text);
  });

  test.each(['wirekit.x', 'wirekit.arrow', 'wirekit.', 'wirekit.auto'])(
    'an unknown %s is the usage error of an unknown format',
    async (name) => {
      const bytes = createCodec('msgpack', {}).encode(tick);
      const result = await cli(['inspect', '-', '--format', name], bytes);
      const unknown = await cli(['inspect', '-', '--format', 'x'], bytes);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(unknown.stderr);
      expect(result.stderr).toContain('wirekit.msgpack');
    },
  );

  test('--ws-frame does not go with --registry or --legacy (exit 2)', async () => {
    const bytes = wsFrame(Buffer.from('{}'), frameOptions(1));
    for (const flags of [
      ['--registry', 'http://127.0.0.1:1'],
      ['--legacy', 'json'],
    ]) {
      const result = await inspect(bytes, ...flags);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('does not apply with --ws-frame');
    }
  });
});

function frameOptions(opcode: number, mask = false, fin = true) {
  return { fin, opcode, mask, readOnly: false, rsv1: false };
}

const b = (...bytes: number[]) => Uint8Array.from(bytes);
const msgpackTick = [...createCodec('msgpack', {}).encode({ a: 1 })];

describe('hostile frames: each refused with its code, exit 1, nothing allocated first', () => {
  test.each<[string, Uint8Array, string, RegExp]>([
    ['a header of one byte', b(0x82), 'WK_CLI_INPUT', /frame 0 \(at byte 0\) is cut short: a frame header/],
    ['a cut 16-bit length', b(0x82, 126, 0), 'WK_CLI_INPUT', /cut short inside its 16-bit payload length/],
    [
      'a cut 64-bit length',
      b(0x82, 127, 0, 0, 0),
      'WK_CLI_INPUT',
      /cut short inside its 64-bit payload length/,
    ],
    ['a cut masking key', b(0x82, 0x85, 1, 2), 'WK_CLI_INPUT', /cut short inside its masking key/],
    ['a cut payload', b(0x82, 5, 1, 2), 'WK_CLI_INPUT', /declares a 5-byte payload, 2 bytes are left/],
    [
      'a cut second frame',
      b(0x82, 1, 0xc0, 0x82, 3, 1),
      'WK_CLI_INPUT',
      /frame 1 \(at byte 3\) is cut short/,
    ],
    ['reserved opcode 0x3', b(0x83, 0), 'WK_CLI_INPUT', /reserved opcode 0x3/],
    ['reserved opcode 0xb', b(0x8b, 0), 'WK_CLI_INPUT', /reserved opcode 0xb/],
    [
      'RSV1 (permessage-deflate)',
      b(0xc2, 1, 0),
      'WK_CLI_INPUT',
      /reserved bits set \(RSV 4\).*permessage-deflate/,
    ],
    ['RSV3', b(0x92, 1, 0), 'WK_CLI_INPUT', /reserved bits set \(RSV 1\)/],
    [
      'a 64-bit length with the top bit set',
      b(0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 0),
      'WK_CLI_INPUT',
      /64-bit payload length with its most significant bit set/,
    ],
    [
      'a 64-bit length of 2^62',
      b(0x82, 127, 0x40, 0, 0, 0, 0, 0, 0, 0),
      'WK_LIMIT_INPUT',
      /declares a 2\^53 or more-byte payload, larger than the limit/,
    ],
    [
      'a 64-bit length of 2^40',
      b(0x82, 127, 0, 0, 1, 0, 0, 0, 0, 0),
      'WK_LIMIT_INPUT',
      /declares a 1099511627776-byte payload, larger than the limit of 67108864 bytes/,
    ],
    [
      'a ping of 126 bytes',
      b(0x89, 126, 0, 126, ...new Array(126).fill(0)),
      'WK_CLI_INPUT',
      /control frames carry at most 125/,
    ],
    [
      'a fragmented ping',
      b(0x09, 0),
      'WK_CLI_INPUT',
      /fragmented ping frame: control frames cannot be fragmented/,
    ],
    [
      'a continuation without a start',
      b(0x80, 1, 0xc0),
      'WK_CLI_INPUT',
      /continuation frame \(opcode 0\) with no text or binary frame/,
    ],
    [
      'a new data frame inside a fragmented message',
      b(0x02, 1, 0x91, 0x81, 2, 0x7b, 0x7d),
      'WK_CLI_INPUT',
      /frame 1 \(at byte 3\) starts a new text message while the one begun at frame 0 is unfinished/,
    ],
    [
      'a message without its last fragment',
      b(0x02, 1, 0x91),
      'WK_CLI_INPUT',
      /last fragment \(FIN set\) is missing/,
    ],
    [
      'fragments masked and not',
      b(0x02, 1, 0x91, 0x80, 0x81, 0, 0, 0, 0, 0xc0),
      'WK_CLI_INPUT',
      /capture one direction/,
    ],
    ['a close body of one byte', b(0x88, 1, 3), 'WK_CLI_INPUT', /close frame with a 1-byte body/],
    [
      'a close reason that is not UTF-8',
      b(0x88, 3, 3, 0xe8, 0xff),
      'WK_CLI_INPUT',
      /reason is not valid UTF-8/,
    ],
    [
      'an empty binary message',
      b(0x82, 0),
      'WK_CLI_INPUT',
      /WebSocket message 1 \(frame 0\): its binary payload is empty/,
    ],
  ])('%s', async (_, bytes, code, message) => {
    const result = await inspect(bytes, '--format', 'msgpack');
    expect(result.code).toBe(1);
    expect(result.stderr.startsWith(`wirekit: ${code}: `), result.stderr).toBe(true);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain('internal error');
  });

  test('a declared length past --max-input-bytes is WK_LIMIT_INPUT before the payload is looked for', async () => {
    const result = await inspect(
      b(0x82, 126, 0x01, 0x00, 1, 2, 3),
      '--format',
      'msgpack',
      '--max-input-bytes',
      '100',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /WK_LIMIT_INPUT: .*declares a 256-byte payload, larger than the limit of 100 bytes/,
    );
  });

  test('non-minimal length encodings are accepted', async () => {
    const n = msgpackTick.length;
    for (const bytes of [
      b(0x82, 126, 0, n, ...msgpackTick),
      b(0x82, 127, 0, 0, 0, 0, 0, 0, 0, n, ...msgpackTick),
    ]) {
      const report = await inspectJson(bytes, '--format', 'msgpack');
      expect(report.messages[0]?.value).toEqual({ a: 1 });
    }
  });

  test('a payload that does not decode is reported with the frame facts, then exit 1', async () => {
    const bytes = b(0x82, 2, 0xc1, 0xc1, 0x89, 0);
    const result = await inspect(bytes, '--format', 'msgpack', '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.text);
    expect(report.messages[0].wsFrame).toMatchObject({ opcode: 'binary', payloadBytes: 2 });
    expect(report.messages[0].error.code).toMatch(/^WK_DECODE_/);
    expect(report.error.code).toBe(report.messages[0].error.code);
  });
});
