/**
 * wirekit's Connect protocol handler against Connect-ES's own client (binary and ProtoJSON, over
 * HTTP/1.1 and h2c), against fetch with each of wirekit's formats, and against hostile bodies.
 */
import { Code, ConnectError } from '@connectrpc/connect';
import { compressionGzip, createConnectTransport } from '@connectrpc/connect-node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createConnectHandlerFactory } from '../../../../src/boundaries/rpc/server/connect-handler.js';
import { fromPeerOrder, peerGetOrder, peerOrder, shopClient } from './peer-messages.js';
import { serveTestService, type TestServer } from './router.js';
import { bigId, ShopService, sampleOrder, shopHandlers, waitForAbortId } from './shop-service.js';

describe.each([
  { httpVersion: '1.1', useBinaryFormat: true },
  { httpVersion: '1.1', useBinaryFormat: false },
  { httpVersion: '2', useBinaryFormat: true },
  { httpVersion: '2', useBinaryFormat: false },
] as const)(
  'Connect-ES client, HTTP/$httpVersion, binary $useBinaryFormat',
  ({ httpVersion, useBinaryFormat }) => {
    let server: TestServer;
    const shop = shopHandlers();
    beforeAll(async () => {
      server = await serveTestService(ShopService, shop.handlers, [createConnectHandlerFactory], {
        httpVersion,
      });
    });
    afterAll(() => server.close());
    const client = () =>
      shopClient(createConnectTransport({ baseUrl: server.url, httpVersion, useBinaryFormat }));

    test('unary: an int64 past 2^53, a timestamp, bytes, an enum, an optional left out', async () => {
      const reply = await client().getOrder(peerGetOrder(bigId));
      expect(fromPeerOrder(reply)).toEqual(sampleOrder(bigId));
      expect(reply.note).toBeUndefined();
      const placed = await client().placeOrder(peerOrder({ ...sampleOrder(bigId), note: 'gift' }));
      expect(fromPeerOrder(placed)).toEqual({ ...sampleOrder(bigId + 1n), note: 'gift' });
    });

    test('server stream', async () => {
      const ids: bigint[] = [];
      for await (const order of client().watchOrders(peerGetOrder(bigId))) ids.push(order.id);
      expect(ids).toEqual([bigId, bigId + 1n, bigId + 2n]);
    });

    test('client stream', async () => {
      async function* orders() {
        for (const id of [1n, 2n, bigId]) yield peerOrder(sampleOrder(id));
      }
      const summary = await client().upload(orders());
      expect([summary.count, summary.idSum]).toEqual([3, bigId + 3n]);
    });

    // Connect over HTTP/1.1 has no full duplex: the router refuses a bidi call there (505).
    test(`bidi stream ${httpVersion === '2' ? 'served' : 'refused over HTTP/1.1'}`, async () => {
      async function* orders() {
        for (const id of [1n, bigId]) yield peerOrder(sampleOrder(id));
      }
      const ids: bigint[] = [];
      const outcome = (async () => {
        for await (const order of client().chat(orders())) ids.push(order.id);
      })();
      if (httpVersion === '2') {
        await outcome;
        expect(ids).toEqual([2n, bigId + 1n]);
      } else {
        const error = await outcome.then(
          () => undefined,
          (e: unknown) => ConnectError.from(e),
        );
        expect(error?.message).toMatch(/HTTP 505/);
      }
    });

    test("a deadline reaches the handler's signal, and the client gets deadline_exceeded", async () => {
      const aborts = shop.aborts();
      const error = await (async () => {
        for await (const _ of client().watchOrders(peerGetOrder(waitForAbortId), { timeoutMs: 300 })) {
          // the first order arrives; the second never does
        }
      })().then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
      expect(error?.code).toBe(Code.DeadlineExceeded);
      await expect.poll(() => shop.aborts()).toBe(aborts + 1);
    });

    test('gzip both ways', async () => {
      const gzipClient = shopClient(
        createConnectTransport({
          baseUrl: server.url,
          httpVersion,
          useBinaryFormat,
          sendCompression: compressionGzip,
          acceptCompression: [compressionGzip],
          compressMinBytes: 0,
        }),
      );
      expect(fromPeerOrder(await gzipClient.getOrder(peerGetOrder(bigId)))).toEqual(sampleOrder(bigId));
      const ids: bigint[] = [];
      for await (const order of gzipClient.watchOrders(peerGetOrder(1n))) ids.push(order.id);
      expect(ids).toEqual([1n, 2n, 3n]);
    });

    test('a validation error is invalid_argument with wirekit code in details', async () => {
      const error = await client()
        .getOrder(peerGetOrder(-1n))
        .catch((e: unknown) => ConnectError.from(e));
      expect(error.code).toBe(Code.InvalidArgument);
      expect(error.details.map((d: { type: string }) => d.type)).toEqual([
        'google.rpc.ErrorInfo',
        'google.rpc.BadRequest',
      ]);
    });
  },
);
