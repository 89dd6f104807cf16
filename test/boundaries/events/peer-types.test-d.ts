import type { KafkaJS } from '@confluentinc/kafka-javascript';
import type { MsgHdrs, NatsConnection, NodeConnectionOptions } from '@nats-io/transport-node';
import type { Kafka, logLevel, RetryOptions } from 'kafkajs';
import { describe, expectTypeOf, test } from 'vitest';
import type {
  KafkaClientLike,
  KafkaConnectionOptions,
  KafkaLogLevel,
  KafkaRetryOptions,
} from '../../../src/boundaries/events/kafka/client-options.js';
import type { KafkaConsumerOptions } from '../../../src/boundaries/events/kafka/consumer.js';
import type {
  NatsConnectionLike,
  NatsConnectionSource,
  NatsConnectOptions,
} from '../../../src/boundaries/events/nats/connection-source.js';
import type { NatsHeaders } from '../../../src/boundaries/events/nats/headers.js';

// The event bindings' types are declared by shape so that `wirekit-ts/events` needs neither
// kafkajs nor the NATS packages to type-check; the clients' own types must still fit them.
describe('the Kafka binding takes what kafkajs makes', () => {
  test('a Kafka client, its log levels and retry options', () => {
    expectTypeOf<Kafka>().toExtend<KafkaClientLike>();
    expectTypeOf<logLevel>().toExtend<KafkaLogLevel>();
    expectTypeOf<RetryOptions>().toExtend<KafkaRetryOptions>();
    expectTypeOf<{ kafka: Kafka; logLevel: logLevel.WARN }>().toExtend<KafkaConnectionOptions>();
    expectTypeOf<{ retry: RetryOptions }>().toExtend<Partial<KafkaConsumerOptions<unknown>>>();
  });

  test('a log level kafkajs does not have is refused', () => {
    expectTypeOf<3>().not.toExtend<KafkaLogLevel>();
  });
});

describe('the Kafka binding takes what the Confluent client makes', () => {
  test('its KafkaJS-shaped client, with client: confluent', () => {
    expectTypeOf<KafkaJS.Kafka>().toExtend<KafkaClientLike>();
    expectTypeOf<{ client: 'confluent'; kafka: KafkaJS.Kafka }>().toExtend<KafkaConnectionOptions>();
    expectTypeOf<{ client: 'rdkafka' }>().not.toExtend<KafkaConnectionOptions>();
  });
});

describe('the NATS binding takes what @nats-io/transport-node makes', () => {
  test('a connection, its options and message headers', () => {
    expectTypeOf<NatsConnection>().toExtend<NatsConnectionLike>();
    expectTypeOf<Partial<NodeConnectionOptions>>().toExtend<NatsConnectOptions>();
    expectTypeOf<{
      connection: NatsConnection;
      connectionOptions: Partial<NodeConnectionOptions>;
    }>().toExtend<NatsConnectionSource>();
    expectTypeOf<MsgHdrs>().toExtend<NatsHeaders>();
  });
});
