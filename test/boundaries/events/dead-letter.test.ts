/**
 * Which decoding failures make an event poison (dead-lettered) and which are waited out
 * (retried), and the headers a dead-lettered event carries.
 */
import { describe, expect, test } from 'vitest';
import {
  deadLetterHeaderNames,
  deadLetterHeaders,
  isPoison,
} from '../../../src/boundaries/events/dead-letter.js';
import { type ErrorCode, errorCodes, WirekitError } from '../../../src/errors/index.js';

describe('isPoison', () => {
  test.each([
    'WK_EVENT_FRAME_INVALID',
    'WK_REGISTRY_NOT_FOUND',
    'WK_REGISTRY_SCHEMA_INVALID',
    'WK_DECODE_TRUNCATED',
    'WK_DECODE_MALFORMED',
    'WK_DECODE_SCHEMA_MISMATCH',
    'WK_DECODE_UNSAFE_KEY',
    'WK_LIMIT_INPUT',
    'WK_LIMIT_DEPTH',
    'WK_ENVELOPE_INVALID',
    'WK_ENVELOPE_SCHEMA',
    'WK_VALIDATION_FAILED',
    'WK_UNKNOWN_FORMAT',
  ] as ErrorCode[])('%s: the event can never be read, so it is poison', (code) => {
    expect(isPoison(new WirekitError(code, 'x'))).toBe(true);
  });

  test('a registry that cannot be reached is not the event’s fault: retried', () => {
    expect(isPoison(new WirekitError('WK_REGISTRY_UNAVAILABLE', 'down'))).toBe(false);
  });

  test('every code but WK_REGISTRY_UNAVAILABLE is poison', () => {
    const transient = Object.keys(errorCodes).filter(
      (code) => !isPoison(new WirekitError(code as ErrorCode, 'x')),
    );
    expect(transient).toEqual(['WK_REGISTRY_UNAVAILABLE']);
  });

  test('what is no WirekitError breaks the codec contract and is retried, not dead-lettered on a guess', () => {
    for (const error of [
      new Error('x'),
      new TypeError('x'),
      new RangeError('x'),
      'a string',
      undefined,
      { code: 'WK_DECODE_MALFORMED' },
    ]) {
      expect(isPoison(error)).toBe(false);
    }
  });
});

describe('deadLetterHeaders', () => {
  const dead = (message: string) => ({
    bytes: new Uint8Array([1]),
    key: undefined,
    headers: {},
    topic: 'orders',
    partition: 2,
    offset: '12345678901234',
    error: new WirekitError('WK_DECODE_TRUNCATED', message),
  });

  test('say why and where from', () => {
    expect(deadLetterHeaders(dead('ends early'))).toEqual({
      [deadLetterHeaderNames.code]: 'WK_DECODE_TRUNCATED',
      [deadLetterHeaderNames.message]: 'ends early',
      [deadLetterHeaderNames.topic]: 'orders',
      [deadLetterHeaderNames.partition]: '2',
      [deadLetterHeaderNames.offset]: '12345678901234',
    });
    expect(Object.values(deadLetterHeaderNames)).toEqual([
      'wirekit-error-code',
      'wirekit-error-message',
      'wirekit-source-topic',
      'wirekit-source-partition',
      'wirekit-source-offset',
    ]);
  });

  test('a huge message is cut to a header’s size', () => {
    const message = deadLetterHeaders(dead('x'.repeat(1_000_000)))[deadLetterHeaderNames.message] as string;
    expect(message.length).toBeLessThanOrEqual(1001);
    expect(message.endsWith('…')).toBe(true);
  });
});
