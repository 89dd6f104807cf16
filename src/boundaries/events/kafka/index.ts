/**
 * The Kafka binding of the event boundary: a producer and a consumer group member over kafkajs or
 * Confluent's librdkafka client (optional peers, imported on first use), with the semantics
 * transport.ts sets for every broker.
 */
export type {
  KafkaClientLike,
  KafkaClientName,
  KafkaConnectionOptions,
  KafkaLogLevel,
  KafkaRetryOptions,
} from './client-options.js';
export { type KafkaConsumerOptions, type KafkaEventConsumer, kafkaConsumer } from './consumer.js';
export type { KafkaCommitPolicy } from './offset-commits.js';
export { type KafkaProducerOptions, kafkaProducer } from './producer.js';
