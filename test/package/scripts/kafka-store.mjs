// The schema registry on the Kafka store, from the installed package in plain Node: a server on the
// topic registers a schema; a second one, loading the same topic, answers with the same id.
import { kafkaStore, startRegistryServer } from 'wirekit-ts/events';

const { bootstrap, topic } = JSON.parse(process.argv[2]);
const schema = JSON.stringify({ type: 'record', name: 'Event', fields: [{ name: 'id', type: 'long' }] });

const serve = () =>
  startRegistryServer({
    port: 0,
    store: kafkaStore({ brokers: [bootstrap], topic, loadTimeoutMs: 30_000 }),
  });

const first = await serve();
const response = await fetch(`${first.url}/subjects/events-value/versions`, {
  method: 'POST',
  headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
  body: JSON.stringify({ schema }),
});
const registered = await response.json();
await first.close();

const second = await serve();
const loaded = await (await fetch(`${second.url}/subjects/events-value/versions/1`)).json();
await second.close();
console.log(JSON.stringify({ registered, loaded }));
