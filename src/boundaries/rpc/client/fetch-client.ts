/**
 * The HTTP client of the browser transports, on the page's `fetch`. The request body is sent whole:
 * a page can stream a request body only over HTTP/2 or later with `duplex: 'half'` (Chromium fails
 * it over HTTP/1.1), which Connect's own `createFetchClient` does not ask for. So a client stream
 * or a bidi stream from a page sends its requests once their iterable ends (half duplex, as
 * gRPC-Web from a browser always is); reply streams are read as they arrive.
 */
import type { UniversalClientFn } from '@connectrpc/connect/protocol';

export function fetchHttpClient(fetchFn: typeof fetch): UniversalClientFn {
  return async (request) => {
    const body = request.body === undefined ? undefined : await joined(request.body);
    const response = await fetchFn(request.url, {
      method: request.method,
      headers: request.header,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(body === undefined ? {} : { body }),
    });
    return {
      status: response.status,
      header: response.headers,
      body: chunksOf(response),
      trailer: new Headers(),
    };
  };
}

async function joined(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    length += chunk.byteLength;
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

async function* chunksOf(response: Response): AsyncIterable<Uint8Array> {
  if (response.body === null) return;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
