/**
 * Reaching Kafka through kafkajs, which is an optional peer: it is imported when a producer first
 * sends or a consumer starts, never when `wirekit-ts/events` loads, so a service on NATS alone
 * needs no kafkajs. A caller may bring a `Kafka` client of their own (its brokers, TLS, SASL,
 * logging); otherwise one is made from `brokers` with quiet logs and bounded retries.
 *
 * Every failure of the broker, as kafkajs reports it, becomes one WirekitError code,
 * WK_EVENT_BROKER_UNAVAILABLE, with the kafkajs error as its cause (its name and `type` say which
 * protocol error it was).
 */
import type { Kafka, KafkaConfig, logLevel as LogLevel, RetryOptions } from 'kafkajs';
import { WirekitError } from '../../../errors/index.js';
import { importPeer } from '../../../util/optional-peer.js';
import type { KafkaConnectionOptions } from './client-options.js';

export type Kafkajs = typeof import('kafkajs');

let loading: Promise<Kafkajs> | undefined;

/**
 * kafkajs, as its own code exports it. It is CommonJS (`module.exports = { Kafka, …, ...errors }`),
 * so Node's ESM loader gives the whole of module.exports as the default export, and by name only
 * what cjs-module-lexer spots in that literal: Kafka and logLevel, but not ConfigResourceTypes nor
 * the error classes. A test runner's interop names them all, so only the default export is read.
 */
export function loadKafkajs(): Promise<Kafkajs> {
  loading ??= importPeer(async () => (await import('kafkajs')).default, 'The Kafka binding', 'kafkajs').catch(
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * A kafkajs client: the caller's, or one made from `brokers` with quiet logs and `retry` as its
 * connection retries. Those decide how long a broker may be away before kafkajs gives up on it
 * (a producer's send fails, a consumer crashes and rejoins the group as a new member), whatever
 * retries the producer or consumer has on top; a caller's own client keeps its own.
 */
export function kafkaClient(kafkajs: Kafkajs, options: KafkaConnectionOptions, retry: RetryOptions): Kafka {
  if (options.kafka !== undefined) return options.kafka as Kafka;
  if (options.brokers === undefined || options.brokers.length === 0) {
    throw new TypeError('The Kafka binding needs `kafka` (a kafkajs client) or `brokers`.');
  }
  const config: KafkaConfig = {
    clientId: options.clientId ?? 'wirekit',
    brokers: [...options.brokers],
    logLevel: (options.logLevel as LogLevel | undefined) ?? kafkajs.logLevel.ERROR,
    retry,
  };
  return new kafkajs.Kafka(config);
}

/** Retries at kafkajs's pace (doubling from `initialMs`, each wait at most `maxWaitMs`) that fit in `budgetMs`. */
export function retriesWithin(budgetMs: number, initialMs: number, maxWaitMs: number): number {
  let retries = 0;
  let wait = initialMs;
  for (let spent = wait; spent <= budgetMs; spent += wait) {
    retries += 1;
    wait = Math.min(wait * 2, maxWaitMs);
  }
  return Math.max(1, retries);
}

/**
 * True when kafkajs marks the first error of a chain as retriable (a refused or dropped
 * connection, a leader moving), however it wrapped it: kafkajs wraps a retriable error in a
 * non-retriable one when its own retries ran out, and decides whether a crashed consumer restarts
 * by this same root.
 */
export function retriableAtRoot(error: unknown): boolean {
  let root = error;
  for (let depth = 0; depth < 10 && root instanceof Error && root.cause instanceof Error; depth += 1)
    root = root.cause;
  return root instanceof Error && (root as { retriable?: unknown }).retriable === true;
}

export function brokerUnavailable(message: string, cause: unknown): WirekitError {
  const reason = cause instanceof Error ? `: ${cause.message}` : '';
  return new WirekitError('WK_EVENT_BROKER_UNAVAILABLE', `${message}${reason}`, { cause });
}
