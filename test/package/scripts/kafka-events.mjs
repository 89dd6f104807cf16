// The Kafka producer and consumer, from the installed package in plain Node: three events sent to
// a topic come back to a consumer group reading it from the start.
import { eventCodec, kafkaConsumer, kafkaProducer } from 'wirekit-ts/events';
import { t } from 'wirekit-ts/schema';

const { bootstrap, topic } = JSON.parse(process.argv[2]);
const Reading = t.object('Reading', { sensor: t.string(), n: t.int32() });
const codec = eventCodec({ schema: Reading, format: 'msgpack', framing: 'envelope' });
const sent = [1, 2, 3].map((n) => ({ key: `s${n}`, value: { sensor: `s${n}`, n } }));

const producer = await kafkaProducer({ brokers: [bootstrap], topic, codec });
await producer.send(sent);
await producer.close();

const received = [];
let allReceived;
const done = new Promise((resolve) => {
  allReceived = resolve;
});
const consumer = await kafkaConsumer({
  brokers: [bootstrap],
  groupId: `${topic}-readers`,
  topic,
  codec,
  fromBeginning: true,
  handler: async (events) => {
    received.push(...events.map((event) => event.value));
    if (received.length >= sent.length) allReceived();
  },
});
await done;
await consumer.stop();
console.log(JSON.stringify({ received }));
