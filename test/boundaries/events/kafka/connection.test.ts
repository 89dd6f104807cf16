/**
 * The Kafka connection helpers without a broker: how many kafkajs retries fit in a send's
 * deadline, which failures kafkajs calls retriable however deeply it wrapped them, and the error
 * every broker failure becomes.
 */
import { describe, expect, test } from 'vitest';
import {
  brokerUnavailable,
  retriableAtRoot,
  retriesWithin,
} from '../../../../src/boundaries/events/kafka/connection.js';
import { WirekitError } from '../../../../src/errors/index.js';

const kafkajsError = (message: string, retriable: boolean, cause?: Error) =>
  Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { retriable });

describe('Kafka connection helpers', () => {
  test('retriesWithin counts doubling waits, capped, that fit in the budget', () => {
    // 100 + 200 + 400 + 800 + 1600 = 3100; then 2000 each.
    expect(retriesWithin(3100, 100, 2000)).toBe(5);
    expect(retriesWithin(3099, 100, 2000)).toBe(4);
    expect(retriesWithin(30_000, 100, 2000)).toBe(5 + Math.floor((30_000 - 3100) / 2000));
    expect(retriesWithin(10, 100, 2000)).toBe(1);
  });

  test('retriableAtRoot looks through kafkajs’s wrapping to the first error', () => {
    const refused = kafkajsError('ECONNREFUSED', true);
    const gaveUp = kafkajsError('Number of retries exceeded', false, refused);
    expect(retriableAtRoot(gaveUp)).toBe(true);
    expect(retriableAtRoot(kafkajsError('MESSAGE_TOO_LARGE', false))).toBe(false);
    expect(retriableAtRoot(kafkajsError('wrapper', true, kafkajsError('root', false)))).toBe(false);
    expect(retriableAtRoot(new Error('plain'))).toBe(false);
    expect(retriableAtRoot('not an error')).toBe(false);
    // A cycle of causes ends.
    const a = kafkajsError('a', true);
    const b = kafkajsError('b', true, a);
    (a as { cause?: unknown }).cause = b;
    expect(typeof retriableAtRoot(b)).toBe('boolean');
  });

  test('brokerUnavailable carries the kafkajs error as cause and its message', () => {
    const cause = kafkajsError('Connection error', true);
    const error = brokerUnavailable('Kafka did not acknowledge 3 event(s) on orders', cause);
    expect(error).toBeInstanceOf(WirekitError);
    expect(error.code).toBe('WK_EVENT_BROKER_UNAVAILABLE');
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('Kafka did not acknowledge 3 event(s) on orders: Connection error');
    expect(brokerUnavailable('closed', undefined).message).toBe('closed');
  });
});
