import { Code, ConnectError } from '@connectrpc/connect';
import { createAsyncIterable } from '@connectrpc/connect/protocol';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadConnect } from '../../../../src/boundaries/rpc/server/connect-runtime.js';
import {
  transformBase64Decode,
  transformBase64Encode,
} from '../../../../src/boundaries/rpc/server/grpc-web-text.js';

// The transforms take Connect's ConnectError from the runtime the server's entry loads first.
beforeAll(() => loadConnect());

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return new Uint8Array(Buffer.concat(parts));
}

const ascii = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const decode = (...chunks: string[]) =>
  collect(transformBase64Decode()(createAsyncIterable(chunks.map(ascii))));

describe("gRPC-Web's base64 body", () => {
  // Two pieces, each padded on its own: `=` in the middle of the body.
  const first = new Uint8Array([0, 0, 0, 0, 2, 42, 7]);
  const second = new Uint8Array([128, 0, 0, 0, 0]);
  const body = Buffer.from(first).toString('base64') + Buffer.from(second).toString('base64');

  test('padded pieces decode whole, wherever the chunks are cut', async () => {
    expect(body.indexOf('=')).toBeLessThan(body.length - 4);
    const whole = new Uint8Array([...first, ...second]);
    for (let cut = 0; cut <= body.length; cut++) {
      expect(await decode(body.slice(0, cut), body.slice(cut))).toEqual(whole);
    }
    expect(await decode(`${body.slice(0, 5)}\r\n`, body.slice(5))).toEqual(whole);
  });

  test('characters outside base64, or a body ending inside a group of four, are INVALID_ARGUMENT', async () => {
    for (const bad of ['AA!A', 'A=AA', 'AAAAA', 'AA===AAA']) {
      const error = await decode(bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectError);
      expect((error as ConnectError).code).toBe(Code.InvalidArgument);
    }
  });

  test('each chunk written is one padded piece the decoder reads back', async () => {
    const encoded = await collect(transformBase64Encode()(createAsyncIterable([first, second])));
    expect(Buffer.from(encoded).toString('latin1')).toBe(body);
    expect(await decode(Buffer.from(encoded).toString('latin1'))).toEqual(
      new Uint8Array([...first, ...second]),
    );
  });
});
