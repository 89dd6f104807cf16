// The NATS JetStream producer and consumer, from the installed package in plain Node: three events
// published to a stream it creates come back to a durable consumer.
import { eventCodec, natsConsumer, natsProducer } from 'wirekit-ts/events';
import { t } from 'wirekit-ts/schema';

const { url, stream, subject } = JSON.parse(process.argv[2]);
const Reading = t.object('Reading', { sensor: t.string(), n: t.int32() });
const codec = eventCodec({ schema: Reading, format: 'cbor', framing: 'envelope' });
const sent = [1, 2, 3].map((n) => ({ key: `s${n}`, value: { sensor: `s${n}`, n } }));

const producer = natsProducer({ servers: url, subject, stream, ensureStream: true, codec });
await producer.send(sent);
await producer.close();

const received = [];
let allReceived;
const done = new Promise((resolve) => {
  allReceived = resolve;
});
const consumer = await natsConsumer({
  servers: url,
  stream,
  durable: `${stream}_reader`,
  codec,
  handler: async (events) => {
    received.push(...events.map((event) => event.value));
    if (received.length >= sent.length) allReceived();
  },
});
await done;
await consumer.stop();
console.log(JSON.stringify({ received }));
