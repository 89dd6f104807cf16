/**
 * The NATS JetStream binding of the event boundary: `natsProducer` and `natsConsumer` implement the
 * broker-neutral contract of transport.ts, with `@nats-io/transport-node` and `@nats-io/jetstream`
 * as optional peers loaded on first use. The pieces live beside this entry: the connection, the key
 * and headers on the wire, the stream and the durable consumer set-up, the dead-letter path.
 */
export type { NatsConnectionLike, NatsConnectionSource, NatsConnectOptions } from './connection-source.js';
export { type NatsConsumerOptions, natsConsumer } from './consumer.js';
export { binaryKeyHeader, keyHeader } from './headers.js';
export { type NatsProducerOptions, natsProducer } from './producer.js';
export type { NatsStreamSetup } from './stream-setup.js';
