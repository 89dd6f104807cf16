/**
 * `createRpcServer` over TLS: HTTP/2 and HTTP/1.1 on one port told apart by ALPN, grpc-js calling
 * with its own TLS credentials, wirekit's client on each protocol trusting the test CA, mutual TLS
 * refusing a caller without a client certificate, and a cleartext caller getting no answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  connectTransport,
  createRpcClient,
  grpcTransport,
  grpcWebTransport,
  type NodeRpcTransport,
} from '../../../../src/boundaries/rpc/client/index.js';
import { createRpcServer, type RpcServer } from '../../../../src/boundaries/rpc/server/index.js';
import { toProto } from '../../../../src/schema/export/index.js';
import { hasOpenssl, makeCertificates, type TestCertificates } from '../../../support/tls.js';
import { bigId, OrderService, orderService, sampleOrder } from './order-service.js';

let dir: string;
let certs: TestCertificates;
const transports: NodeRpcTransport[] = [];
const keep = (transport: NodeRpcTransport) => {
  transports.push(transport);
  return transport;
};

beforeAll(() => {
  if (!hasOpenssl()) return;
  dir = mkdtempSync(join(tmpdir(), 'wirekit-rpc-tls-'));
  certs = makeCertificates(dir);
});

afterAll(() => {
  for (const transport of transports) transport.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasOpenssl())('server TLS', () => {
  let server: RpcServer;
  beforeAll(async () => {
    server = await createRpcServer({ services: [orderService()], tls: { cert: certs.cert, key: certs.key } });
  });
  afterAll(() => server?.close());

  test('the URL says https, and a cleartext HTTP/2 caller gets no answer', async () => {
    expect(server.url).toBe(`https://127.0.0.1:${server.port}`);
    const session = connect(`http://127.0.0.1:${server.port}`);
    session.on('error', () => undefined);
    const answered = await new Promise<boolean>((resolve) => {
      const stream = session.request({ ':method': 'POST', ':path': '/orders.v1.OrderService/GetOrder' });
      stream.on('response', () => resolve(true));
      stream.on('error', () => resolve(false));
      stream.on('close', () => resolve(false));
      stream.end();
    });
    session.destroy();
    expect(answered).toBe(false);
  });

  test.each([
    ['gRPC', () => grpcTransport({ baseUrl: server.url, tls: { ca: certs.ca } })],
    ['Connect over HTTP/1.1', () => connectTransport({ baseUrl: server.url, tls: { ca: certs.ca } })],
    [
      'Connect over HTTP/2',
      () => connectTransport({ baseUrl: server.url, httpVersion: '2', tls: { ca: certs.ca } }),
    ],
    ['gRPC-Web over HTTP/1.1', () => grpcWebTransport({ baseUrl: server.url, tls: { ca: certs.ca } })],
  ])("wirekit's client over %s, trusting the test CA", async (_name, transportOf) => {
    const client = createRpcClient(OrderService, keep(transportOf()));
    expect(await client.GetOrder({ id: bigId })).toEqual(sampleOrder(bigId));
    const ids: bigint[] = [];
    for await (const order of client.WatchOrders({ id: 2n })) ids.push(order.id);
    expect(ids).toEqual([bigId, bigId + 1n]);
  });

  test('a client that does not trust the CA fails the handshake, saying why', async () => {
    const client = createRpcClient(OrderService, keep(grpcTransport({ baseUrl: server.url })));
    // Connect's client maps a TLS failure to INTERNAL (grpc-js says UNAVAILABLE); no retry either way.
    await expect(client.GetOrder({ id: 1n })).rejects.toMatchObject({
      status: 'INTERNAL',
      message: expect.stringMatching(/certificate/),
    });
  });

  test('grpc-js with its TLS credentials', async () => {
    const protoPath = join(dir, 'orders.proto');
    writeFileSync(protoPath, toProto(OrderService));
    const definition = protoLoader.loadSync(protoPath, { longs: String, includeDirs: ['/usr/include'] });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as {
      orders: {
        v1: {
          OrderService: new (
            address: string,
            credentials: grpc.ChannelCredentials,
          ) => grpc.Client & {
            GetOrder(
              request: object,
              callback: (error: grpc.ServiceError | null, value?: { id: string }) => void,
            ): void;
          };
        };
      };
    };
    const peer = new loaded.orders.v1.OrderService(
      `localhost:${server.port}`,
      grpc.credentials.createSsl(certs.ca),
    );
    try {
      const reply = await new Promise<{ id: string } | undefined>((resolve, reject) =>
        peer.GetOrder({ id: '42' }, (error, value) => (error ? reject(error) : resolve(value))),
      );
      expect(reply?.id).toBe('42');
    } finally {
      peer.close();
    }
  });
});

describe.skipIf(!hasOpenssl())('mutual TLS', () => {
  let server: RpcServer;
  beforeAll(async () => {
    server = await createRpcServer({
      services: [orderService()],
      tls: { cert: certs.cert, key: certs.key, ca: certs.ca, requestCert: true, rejectUnauthorized: true },
    });
  });
  afterAll(() => server?.close());

  test('a caller with a client certificate is served; one without is refused', async () => {
    const withCert = createRpcClient(
      OrderService,
      keep(
        grpcTransport({
          baseUrl: server.url,
          tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey },
        }),
      ),
    );
    expect((await withCert.GetOrder({ id: 7n })).id).toBe(7n);
    const without = createRpcClient(
      OrderService,
      keep(grpcTransport({ baseUrl: server.url, tls: { ca: certs.ca } })),
    );
    // The server's alert: certificate required.
    await expect(without.GetOrder({ id: 7n })).rejects.toMatchObject({
      status: 'INTERNAL',
      message: expect.stringMatching(/certificate required|alert/i),
    });
  });
});
