/**
 * The registry server under hostile input: bodies too large (declared or streamed), clients that
 * send slowly or not at all, names that are JavaScript's own, and random requests. Each gets an
 * answer with an error body or a closed socket; the server never answers 500 and keeps serving.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';
import { call, subjectPath, userSchema } from './http.js';

let server: RegistryServer;
const internalErrors: unknown[] = [];
const timeoutMs = 400;

beforeAll(async () => {
  server = await startRegistryServer({
    maxBodyBytes: 64 * 1024,
    headersTimeoutMs: timeoutMs,
    requestTimeoutMs: timeoutMs * 2,
    keepAliveTimeoutMs: timeoutMs,
    onInternalError: (error) => internalErrors.push(error),
  });
});
afterAll(async () => {
  await server.close();
  expect(internalErrors).toEqual([]);
});

/** Opens a raw socket, writes `first`, and resolves with what came back once the server closed it, and when. */
function rawExchange(
  first: string,
  drip?: { text: string; everyMs: number },
): Promise<{ received: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket: Socket = connect(server.port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      if (first !== '') socket.write(first);
      if (drip !== undefined) timer = setInterval(() => socket.write(drip.text), drip.everyMs);
    });
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ received, closedAfterMs: performance.now() - started });
    });
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the socket open for 10 s; received ${received}`));
    }, 10_000);
  });
}

async function stillServing(): Promise<void> {
  expect((await call(server.url, 'GET', '/schemas/types')).status).toBe(200);
}

describe('bodies too large', () => {
  test('a declared Content-Length past the limit is answered 413 with a body, unread', async () => {
    const reply = await call(server.url, 'POST', subjectPath('s', '/versions'), 'x'.repeat(200 * 1024));
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ error_code: 413 });
    await stillServing();
  });

  test('a chunked body that grows past the limit is cut off with 413', async () => {
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = request(
        `${server.url}/subjects/s/versions`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
        (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      outgoing.on('error', reject);
      const chunk = `"${'y'.repeat(16 * 1024)}`;
      let sent = 0;
      const pump = () => {
        // Keeps sending until the answer comes, as a client that does not listen would.
        while (sent < 40 && outgoing.write(chunk)) sent += 1;
        if (sent < 40) outgoing.once('drain', pump);
      };
      pump();
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toMatchObject({ error_code: 413 });
    await stillServing();
  });

  test('an absurd Content-Length is 413; one that is no number is refused by the HTTP parser', async () => {
    const huge = await rawExchange(
      'POST /subjects/s/versions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999999999999999\r\n\r\n',
    );
    expect(huge.received).toMatch(/^HTTP\/1\.1 (413|400)/);
    const words = await rawExchange(
      'POST /subjects/s/versions HTTP/1.1\r\nHost: x\r\nContent-Length: many\r\n\r\n',
    );
    expect(words.received).toMatch(/^HTTP\/1\.1 400/);
    await stillServing();
  });
});

describe('slow and silent clients', () => {
  test('headers sent a line at a time are cut off by the header timer', async () => {
    const { closedAfterMs } = await rawExchange('GET /subjects HTTP/1.1\r\nHost: x\r\n', {
      text: 'X-Slow: 1\r\n',
      everyMs: 50,
    });
    expect(closedAfterMs).toBeLessThan(5_000);
    await stillServing();
  });

  test('a body that stops coming is cut off by the request timer', async () => {
    const { closedAfterMs } = await rawExchange(
      'POST /subjects/s/versions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"sch',
    );
    expect(closedAfterMs).toBeLessThan(5_000);
    await stillServing();
  });

  test('a socket that sends nothing is closed', async () => {
    const { closedAfterMs } = await rawExchange('');
    expect(closedAfterMs).toBeLessThan(5_000);
    await stillServing();
  });
});

describe("JavaScript's own names", () => {
  test('__proto__, constructor and prototype are subjects like any other, and pollute nothing', async () => {
    const schema = userSchema();
    for (const subject of ['__proto__', 'constructor', 'prototype', 'hasOwnProperty']) {
      const body = `{"schema": ${JSON.stringify(schema)}, "__proto__": {"polluted": true}}`;
      expect((await call(server.url, 'POST', subjectPath(subject, '/versions'), body)).status).toBe(200);
      expect((await call(server.url, 'PUT', `/config/${subject}`, { compatibility: 'FULL' })).status).toBe(
        200,
      );
      expect((await call(server.url, 'GET', `/config/${subject}`)).body).toEqual({
        compatibilityLevel: 'FULL',
      });
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    const subjects = (await call(server.url, 'GET', '/subjects')).body as string[];
    expect(subjects).toEqual(
      expect.arrayContaining(['__proto__', 'constructor', 'prototype', 'hasOwnProperty']),
    );
    expectError(await call(server.url, 'GET', subjectPath('toString', '/versions')), 40401);
  });

  test('a body nested thirty thousand deep is refused with a body', async () => {
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    const reply = await call(server.url, 'POST', subjectPath('s', '/versions'), deep);
    expect(reply.status).toBe(422);
    await stillServing();
  });
});

function expectError(reply: { status: number; body: unknown }, errorCode: number): void {
  expect((reply.body as { error_code: number }).error_code).toBe(errorCode);
}

describe('random requests', () => {
  const segment = fc.oneof(
    fc.constantFrom(
      'subjects',
      'versions',
      'schemas',
      'ids',
      'config',
      'compatibility',
      'latest',
      'types',
      'mode',
    ),
    fc.constantFrom('referencedby', 'schema', '-1', '0', '1', '2147483648', '%', '%2F', '%00', '..', '.'),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
  );
  const body = fc.oneof(
    fc.constant(undefined),
    fc.json({ maxDepth: 3 }),
    fc.string({ maxLength: 50 }),
    fc.record({
      schema: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(userSchema()), fc.integer()),
      schemaType: fc.oneof(
        fc.constant(undefined),
        fc.constantFrom('AVRO', 'PROTOBUF', 'WIREKIT', 'JSON', ''),
      ),
      compatibility: fc.constantFrom('FULL', 'none', 'x', undefined),
    }),
  );

  test('any method, path and body gets an answer that is no 500, with a JSON body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        fc.array(segment, { maxLength: 6 }),
        fc.constantFrom('', '?deleted=true', '?permanent=true', '?verbose=true&defaultToGlobal=true', '?%zz'),
        body,
        async (method, segments, query, payload) => {
          const path = `/${segments.join('/')}${query}`;
          const reply = await call(
            server.url,
            method,
            path,
            method === 'GET' || method === 'DELETE' ? undefined : payload,
          );
          expect(reply.status, `${method} ${path}`).not.toBe(500);
          expect(reply.status, `${method} ${path}`).toBeLessThan(500);
          if (reply.status !== 200) expect(reply.body, `${method} ${path}`).toHaveProperty('error_code');
        },
      ),
      { numRuns: 300 },
    );
    await stillServing();
  });
});
