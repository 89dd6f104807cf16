/**
 * HTTP/1.1 and cleartext HTTP/2 (h2c) on one port. Node 20's `http2.createServer` ignores
 * `allowHTTP1` without TLS, so an HTTP/1.1 client (fetch, a browser's gRPC-Web or Connect call)
 * would get a parse error from an h2c server. Every HTTP/2 connection opens with the same 24-byte
 * client preface, so each new connection is held until its first bytes either complete the
 * preface (HTTP/2) or stop matching it (HTTP/1.1), then handed, bytes unread, to the right server.
 * With TLS, `http2.createSecureServer({ allowHTTP1: true })` does this by ALPN instead.
 */
import type { Server as Http1Server } from 'node:http';
import type { Http2Server } from 'node:http2';
import { createServer, type Server, type Socket } from 'node:net';

const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** How long a new connection may stay silent before it is dropped. */
const sniffTimeoutMs = 10_000;

/** Which server a connection's first bytes are for, once they say; undefined while they could be either. @internal exported for its tests. */
export function protocolOfPreface(head: Uint8Array): 'h2' | 'http/1.1' | undefined {
  const n = Math.min(head.length, preface.length);
  for (let i = 0; i < n; i++) if (head[i] !== preface[i]) return 'http/1.1';
  return head.length >= preface.length ? 'h2' : undefined;
}

function sniff(socket: Socket, h1: Http1Server, h2: Http2Server): void {
  let head: Buffer = Buffer.alloc(0);
  const timer = setTimeout(() => socket.destroy(), sniffTimeoutMs);
  const stop = () => {
    clearTimeout(timer);
    socket.off('readable', onReadable);
    socket.off('error', onError);
    socket.off('end', onEnd);
  };
  const onError = () => {
    stop();
    socket.destroy();
  };
  const onEnd = () => {
    stop();
    socket.destroy();
  };
  function onReadable() {
    for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
    }
    const protocol = protocolOfPreface(head);
    if (protocol === undefined) return;
    stop();
    // The bytes read go back to the socket; both servers read them first (node:http2 takes a
    // socket's buffered bytes when its session starts).
    socket.unshift(head);
    (protocol === 'h2' ? h2 : h1).emit('connection', socket);
  }
  socket.on('readable', onReadable);
  socket.on('error', onError);
  socket.on('end', onEnd);
}

/** A TCP server that hands each connection to `h1` or `h2` by its first bytes. */
export function createOnePortServer(h1: Http1Server, h2: Http2Server): Server {
  return createServer((socket) => sniff(socket, h1, h2));
}
