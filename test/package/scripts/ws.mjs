// The WebSocket plugin (Fastify and @fastify/websocket) and the client (over undici's WebSocket,
// as on Node 20), from the installed package in plain Node: the client offers MessagePack, the
// server answers in it, and every message comes back doubled.
import Fastify from 'fastify';
import { WebSocket } from 'undici';
import { msgpackFormat } from 'wirekit-ts/msgpack';
import { t } from 'wirekit-ts/schema';
import { wirekitSockets } from 'wirekit-ts/ws';
import { createSocketClient } from 'wirekit-ts/ws/client';

const Tick = t.object('Tick', { symbol: t.string(), price: t.float64() });

const app = Fastify();
await app.register(wirekitSockets);
app.wirekitSocket({
  url: '/ws',
  receive: Tick,
  send: Tick,
  handler: async (connection) => {
    for await (const tick of connection.messages) connection.send({ ...tick, price: tick.price * 2 });
  },
});
const base = await app.listen({ port: 0, host: '127.0.0.1' });

const client = createSocketClient({
  url: `${base.replace(/^http/, 'ws')}/ws`,
  receive: Tick,
  send: Tick,
  codecs: [msgpackFormat],
  WebSocket,
  reconnect: false,
});
await client.opened();
client.send({ symbol: 'ASML', price: 1.25 });
client.send({ symbol: 'ADYEN', price: 2.5 });
const received = [];
for await (const tick of client.messages) {
  received.push(tick);
  if (received.length === 2) break;
}
const format = client.format;
client.close();
await app.close();
console.log(JSON.stringify({ format, received }));
