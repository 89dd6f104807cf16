/**
 * A market-data WebSocket (issue 17): `/ws` streams a price tick 100 times a second to each client
 * in the format the client negotiated (`Sec-WebSocket-Protocol: wirekit.msgpack`, ...; none offered
 * means JSON in text frames) and echoes every tick a client sends. `/` serves a page (built with
 * Vite at start) where a wirekit client per format decodes the ticks in the browser and shows their
 * size; `sizes.ts` prints the bytes per message of every format from the command line.
 *
 *   npm run example:ws -- --port 3000     (--port 0 picks a free port and prints it)
 */
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { wirekitSockets } from 'wirekit-ts/ws';
import { buildTickPage } from './build-page.js';
// The bench's tick, which the package does not export: a fixture of this repository.
import { Tick, tickSource } from './tick.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '3000' } } });
const ticksPerSecond = 100;

const app = Fastify({ logger: false });
await app.register(wirekitSockets);

app.wirekitSocket({
  url: '/ws',
  receive: Tick,
  send: Tick,
  handler: async (connection) => {
    // Each connection has its own timer and its own sequence; the loop below echoes what it sends.
    const next = tickSource();
    const timer = setInterval(() => connection.send(next()), 1000 / ticksPerSecond);
    try {
      for await (const message of connection.messages) connection.send(message);
    } finally {
      clearInterval(timer);
    }
  },
});

const page = await buildTickPage();
app.addHook('onClose', async () => page.remove());
app.get('/favicon.ico', (_request, reply) => reply.code(204).send());
app.get('/*', (request, reply) => {
  const path = (request.params as { '*': string })['*'] || 'index.html';
  const file = page.file(path);
  return file === undefined ? reply.code(404).send() : reply.type(file.type).send(file.body);
});

const address = await app.listen({ host: '127.0.0.1', port: Number(values.port) });
const port = new URL(address).port;
const ws = `ws://127.0.0.1:${port}/ws`;
console.log(`listening on ${ws} (${ticksPerSecond} ticks/s per client), page at ${address}/
Try:
  websocat ${ws}        # JSON in text frames: no protocol asked
  websocat --protocol wirekit.msgpack --binary ${ws} | head -c 600 | xxd | head
  npx tsx examples/ws/sizes.ts --port ${port}   # bytes per message in every format
  ${address}/ in a browser: a client per format, the ticks decoded and their size
Ctrl-C stops it.`);

// Closing the app closes every socket with 1001 (going away), which ends each handler and its timer.
const stop = () => {
  void app.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
