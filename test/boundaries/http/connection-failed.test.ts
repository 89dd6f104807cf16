/**
 * Requests that get no response at all, through the real client and fetch (the global one and
 * undici's): a port nothing listens on, a server that resets every connection as it comes, one that
 * closes it once the request has arrived, and a host name that cannot resolve. Each is an
 * HttpConnectionError (WK_HTTP_CONNECTION_FAILED) naming the method, the URL and the reason, with
 * fetch's own error as its cause; a call the caller aborted stays an abort.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient, HttpConnectionError } from '../../../src/boundaries/http/index.js';
import { jsonFormat } from '../../../src/codecs/json/index.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { t } from '../../../src/schema/index.js';
import { freePort } from '../../support/servers/free-port.js';

const Note = t.object('Note', { text: t.string() });

/** A TCP server that does `onSocket` to every connection, on a free loopback port. */
async function rawServer(onSocket: (socket: Socket) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(onSocket);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

let resetting: { server: Server; port: number };
let closingAfterRequest: { server: Server; port: number };
beforeAll(async () => {
  resetting = await rawServer((socket) => socket.resetAndDestroy());
  // Reads the request's head, then closes without a byte of response.
  closingAfterRequest = await rawServer((socket) => {
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (head.includes('\r\n\r\n')) socket.destroy();
    });
  });
});
afterAll(async () => {
  for (const { server } of [resetting, closingAfterRequest]) {
    await new Promise((resolve) => server.close(resolve));
  }
});

async function failure(call: () => Promise<unknown>): Promise<HttpConnectionError> {
  const error = await call().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(isWirekitError(error, 'WK_HTTP_CONNECTION_FAILED'), String(error)).toBe(true);
  expect(error).toBeInstanceOf(HttpConnectionError);
  return error as HttpConnectionError;
}

const fetches = [
  ['global fetch', globalThis.fetch],
  ['undici fetch', undiciFetch as unknown as typeof fetch],
] as const;

describe.each(fetches)('over the %s', (_, fetchImpl) => {
  test('a refused connection names the request and ECONNREFUSED, and keeps the cause', async () => {
    // Free a moment ago and closed since: nothing listens there.
    const port = await freePort();
    const api = createClient({ baseUrl: `http://127.0.0.1:${port}`, codecs: [jsonFormat], fetch: fetchImpl });
    const error = await failure(() => api.get('/notes/1', { reply: Note, query: { full: true } }));
    const url = `http://127.0.0.1:${port}/notes/1?full=true`;
    expect([error.method, error.url, error.reason]).toEqual(['GET', url, 'ECONNREFUSED']);
    expect(error.message).toContain(`GET ${url} got no response (`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.cause).toBeInstanceOf(TypeError);
    expect((error.cause as Error).message).toBe('fetch failed');
  });

  test('a connection reset as it opens', async () => {
    const baseUrl = `http://127.0.0.1:${resetting.port}`;
    const api = createClient({ baseUrl, codecs: [jsonFormat], fetch: fetchImpl });
    const error = await failure(() => api.post('/notes', { text: 'hi' }, { body: Note, reply: Note }));
    expect([error.method, error.url]).toEqual(['POST', `${baseUrl}/notes`]);
    expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(error.reason);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  test('a connection closed after the request, before any response', async () => {
    const baseUrl = `http://127.0.0.1:${closingAfterRequest.port}`;
    const api = createClient({ baseUrl, codecs: [jsonFormat], fetch: fetchImpl });
    const error = await failure(() => api.get('/notes', { reply: t.array(Note) }));
    expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(error.reason);
    expect(error.url).toBe(`${baseUrl}/notes`);
  });
});

test('a host name that does not resolve is ENOTFOUND (or the resolver’s failure), naming the URL', async () => {
  // `.invalid` never resolves (RFC 6761); an offline resolver may answer EAI_AGAIN instead.
  const api = createClient({ baseUrl: 'http://wirekit-test.invalid:8080', codecs: [jsonFormat] });
  const error = await failure(() => api.get('/notes'));
  expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(error.reason);
  expect(error.url).toBe('http://wirekit-test.invalid:8080/notes');
});

test('a base URL with a user name and password is refused when the client is made', () => {
  // fetch would refuse every call to it; its password must never reach an error message or a log.
  const make = () => createClient({ baseUrl: 'http://me:secret@127.0.0.1:8080', codecs: [jsonFormat] });
  expect(make).toThrow(expect.objectContaining({ code: 'WK_OPTIONS_INVALID' }));
  expect(make).not.toThrow(/secret/);
});

test('an abort the caller asked for stays an abort', async () => {
  const port = await freePort();
  const api = createClient({ baseUrl: `http://127.0.0.1:${port}`, codecs: [jsonFormat] });
  const aborted = AbortSignal.abort(new Error('the caller gave up'));
  await expect(api.get('/notes', { signal: aborted })).rejects.toThrow('the caller gave up');
});
