/**
 * How to apply each pick: the option and value, as a line of code for the boundary's own API
 * (`wirekit-ts/http`, `/ws`, `/cache`, `/events`, `/tables`). The options named here are checked
 * against those APIs' types by test/lab/apply.test.ts, so a renamed option fails a test rather
 * than misleading a reader.
 */
import { socketFormats } from '../boundaries/ws/index.js';
import type { CaseResult } from './case.js';

/** The HTTP route (and, where the format is one a socket speaks, the WebSocket plugin) for `format`. */
function routeLines(format: string, role: string): string {
  const formats = format === 'json' ? "['json']" : `['json', '${format}']`;
  const route = `wirekitRoute({ body, reply, formats: ${formats}, handler })`;
  const client = format === 'json' ? '' : `; the typed client: createClient({ ..., format: '${format}' })`;
  const socket = (socketFormats as readonly string[]).includes(format)
    ? `; WebSockets: app.register(wirekitSockets, { formats: ${formats} })`
    : '';
  return `${role}: ${route}${client}${socket}.`;
}

/**
 * The line for one pick, or undefined for a boundary without one. `cache` is the result the cache
 * pick came from, whose compression figures explain how it differs from the cache's default.
 */
export function applyLine(boundary: string, format: string, cache?: CaseResult): string | undefined {
  switch (boundary) {
    case 'public API (people read it)':
      return routeLines('json', 'HTTP route (JSON first answers requests that state no preference)');
    case 'internal RPC':
      return routeLines(format, 'HTTP route');
    case 'cache behind compression': {
      const [codec, compression] = format.split(' + ') as [string, string];
      return `createCache({ schema, format: '${codec}', compression: '${compression}' }). ${defaultNote(codec, cache)}`;
    }
    case 'event stream with an evolving schema':
      return `eventCodec({ schema, format: '${format}', registry, subject: 'orders-value' }) for kafkaProducer/kafkaConsumer or natsProducer/natsConsumer.`;
    case 'bulk tabular results':
      return format === 'arrow'
        ? "return await source.query(sql) from wirekitRoute({ stream: Row, formats: ['arrow', 'json'], handler }): the tables source's record batches go out as an Arrow stream, never as rows."
        : `wirekitRoute({ stream: Row, formats: ['${format}', 'json'], handler }); a client that wants columns asks for arrow.`;
    default:
      return undefined;
  }
}

/**
 * The cache defaults to snappy for latency: a cache read sits on every request's path, and snappy
 * (de)compresses several times faster than zstd, while zstd makes the values smaller. The pick is
 * by size, so the line says what the two cost on the measured values, and which to keep when.
 */
function defaultNote(codec: string, cache: CaseResult | undefined): string {
  const snappy = cache?.compressed.snappy;
  const zstd = cache?.compressed.zstd;
  const sameFormat = codec === 'avro' ? 'the same format' : 'avro';
  if (snappy === undefined || zstd === undefined) {
    return `The cache's default is ${sameFormat} + snappy, chosen for latency: keep it where a read's time matters more than the bytes in Redis.`;
  }
  const us = (ms: number) => `${Math.round(ms * 1000)} µs`;
  const smaller = Math.round((1 - zstd.bytes / snappy.bytes) * 100);
  return (
    `The cache's default is ${sameFormat} + snappy, chosen for latency: on these values zstd is ${smaller} % smaller ` +
    `(${Math.round(zstd.bytes)} B against ${Math.round(snappy.bytes)} B) but takes ${us(zstd.compressMs)} to compress and ` +
    `${us(zstd.decompressMs)} to decompress against snappy's ${us(snappy.compressMs)} and ${us(snappy.decompressMs)}. ` +
    'Keep the default where a read sits on a request path and memory is cheap; set zstd where Redis memory or the network costs more.'
  );
}
