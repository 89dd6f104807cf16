/**
 * `wirekit-ts/events`: events over Kafka and NATS JetStream, framed for a schema registry (the
 * Confluent wire format) or in wirekit's envelope, with a Confluent-compatible registry server and
 * client and the compatibility rules it applies. See docs/events.md.
 */
export {
  type CheckOptions,
  type CompatibilityIssue,
  checkCompatibility,
  checkSchemaBounds,
  compatibilityReport,
  defaultSchemaLimits,
  messageIndexesOf,
  type ParsedSchema,
  parseRegisteredSchema,
  protobufMessageAt,
  type SchemaLimits,
} from './compatibility/index.js';
export { isPoison } from './dead-letter.js';
export {
  type DecodedEvent,
  type EventCodec,
  type EventCodecOptions,
  eventCodec,
  type Framing,
  type RegistryFormat,
} from './event-codec.js';
export {
  type ConfluentFrame,
  confluentMagicByte,
  readConfluentFrame,
  writeConfluentFrame,
} from './framing.js';
export {
  type KafkaClientLike,
  type KafkaClientName,
  type KafkaCommitPolicy,
  type KafkaConnectionOptions,
  type KafkaConsumerOptions,
  type KafkaEventConsumer,
  type KafkaLogLevel,
  type KafkaProducerOptions,
  type KafkaRetryOptions,
  kafkaConsumer,
  kafkaProducer,
} from './kafka/index.js';
export {
  binaryKeyHeader,
  keyHeader,
  type NatsConnectionLike,
  type NatsConnectionSource,
  type NatsConnectOptions,
  type NatsConsumerOptions,
  type NatsProducerOptions,
  type NatsStreamSetup,
  natsConsumer,
  natsProducer,
} from './nats/index.js';
export {
  type CompatibilityLevel,
  compatibilityLevels,
  defaultCompatibility,
  type RegistryMode,
  registryModes,
  type SchemaDefinition,
  type SchemaReference,
  type SchemaType,
  type SubjectVersion,
  schemaTypes,
} from './registry/api.js';
export { type RegistryRole, type RegistryUser, registryRoles } from './registry/basic-auth.js';
export {
  RegistryClientError,
  type RegistryClientOptions,
  type RegistryErrorDetails,
  registryClient,
  type WirekitRegistryClient,
} from './registry/client.js';
export type { CompatibilityResult, RegistryClient } from './registry/client-api.js';
export { fileStore } from './registry/file-store.js';
export { type KafkaStoreOptions, kafkaStore } from './registry/kafka-store.js';
export { type MemoryStore, memoryStore } from './registry/memory-store.js';
export type { ParsedCacheLimits } from './registry/parsed-cache.js';
export { StoreCorruptError } from './registry/record-json.js';
export {
  createSchemaRegistry,
  type SchemaRegistry,
  type SchemaRegistryOptions,
} from './registry/registry.js';
export { isRegistryError, RegistryError } from './registry/registry-error.js';
export {
  parseRegistryUsers,
  readRegistryUsers,
  registryUsersFromEnv,
} from './registry/registry-users.js';
export { type RegistryServer, startRegistryServer } from './registry/server.js';
export type {
  RegistryAuthOptions,
  RegistryServerOptions,
  RegistryTlsOptions,
} from './registry/server-options.js';
export type { LeaderView, RegistryRecord, RegistryStore, SharedLog } from './registry/store.js';
export type {
  ConsumerOptions,
  ConsumerStats,
  DeadLetter,
  DeadLetterTarget,
  EventConsumer,
  EventKey,
  EventProducer,
  OutgoingEvent,
  ReceivedEvent,
} from './transport.js';
