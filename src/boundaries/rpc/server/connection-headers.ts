/**
 * Headers HTTP/2 forbids (RFC 9113 §8.2.2): the connection-specific ones of HTTP/1.1. node:http2
 * throws on each, and where it sends trailers it throws inside its own 'wantTrailers' event, beyond
 * any handler's reach: a handler that set `connection` as a trailer stopped the process. Node's
 * compatibility response ignores such a header when it is set; every protocol and path of the RPC
 * server does the same with what a handler sets, headers and trailers alike, so one call is
 * answered the same way over gRPC, gRPC-Web and Connect, directly or through Connect's router.
 */

const connectionSpecific = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
]);

/** Removes from `headers` what HTTP/2 forbids: the names above, and `te` other than `trailers`. */
export function dropConnectionHeaders(headers: Headers): void {
  // Collected first: deleting while iterating would skip the entry after each one deleted.
  const found: string[] = [];
  for (const [name, value] of headers) {
    if (connectionSpecific.has(name) || (name === 'te' && value !== 'trailers')) found.push(name);
  }
  for (const name of found) headers.delete(name);
}
