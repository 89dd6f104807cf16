/**
 * A message of the registry's topic as the store reads it. Kept apart from kafka-tail.ts, whose
 * declarations name kafkajs's types: kafkajs is an optional peer, and the store's declarations
 * reach `wirekit-ts/events`, which must type-check without it.
 */
export interface TopicMessage {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly offset: string;
}
