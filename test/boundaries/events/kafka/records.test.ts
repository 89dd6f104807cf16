/**
 * Kafka records to and from what the handler and the dead-letter path see, without a broker:
 * headers as kafkajs folds them (repeated names as arrays, names Object.prototype has mixed with
 * what it held), keys and values as Buffers without copies.
 */
import type { KafkaMessage } from 'kafkajs';
import { describe, expect, test } from 'vitest';
import {
  outgoingMessage,
  rawHeaders,
  stringHeaders,
  toBuffer,
} from '../../../../src/boundaries/events/kafka/records.js';

const fetched = (headers: unknown): KafkaMessage =>
  ({
    key: null,
    value: Buffer.from('v'),
    timestamp: '0',
    attributes: 0,
    offset: '0',
    headers,
  }) as KafkaMessage;

describe('Kafka records', () => {
  test('headers as kafkajs folds hostile names are rebuilt without a prototype, values kept', () => {
    // What kafkajs's record decoder makes of headers `constructor: c`, `toString: t` and
    // `__proto__: p`: it reads obj[name] before setting it, so the prototype's member comes along.
    const folded = JSON.parse('{"__proto__":"p"}');
    folded.constructor = [Object, Buffer.from('c')];
    folded.toString = [Object.prototype.toString, 't'];
    folded.repeated = [Buffer.from('first'), Buffer.from('last')];
    folded.empty = [];
    folded.none = undefined;
    const raw = rawHeaders(fetched(folded));
    expect(Object.getPrototypeOf(raw)).toBeNull();
    expect(Object.keys(raw).sort()).toEqual(['__proto__', 'constructor', 'repeated', 'toString']);
    expect(raw.constructor).toEqual(Buffer.from('c'));
    expect(raw.toString).toBe('t');
    expect(raw.repeated).toEqual([Buffer.from('first'), Buffer.from('last')]);
    const text = stringHeaders(raw);
    expect(Object.getPrototypeOf(text)).toBeNull();
    expect(Object.entries(text).sort()).toEqual([
      ['__proto__', 'p'],
      ['constructor', 'c'],
      ['repeated', 'last'],
      ['toString', 't'],
    ]);
    expect(({} as Record<string, unknown>).p).toBeUndefined();
  });

  test('a record without headers (an old message format) has none', () => {
    expect(Object.keys(rawHeaders(fetched(undefined)))).toEqual([]);
  });

  test('binary header values are read as UTF-8 by the handler and kept byte for byte for the dead-letter topic', () => {
    const raw = rawHeaders(fetched({ bin: Buffer.from([0xff, 0x00, 0x41]) }));
    expect(raw.bin).toEqual(Buffer.from([0xff, 0x00, 0x41]));
    expect(stringHeaders(raw).bin).toBe('\ufffd\u0000A');
  });

  test('keys and values go out as Buffers over the same memory; headers are copied', () => {
    const backing = new Uint8Array(16).fill(7);
    const view = backing.subarray(4, 8);
    const buffer = toBuffer(view);
    expect(Buffer.isBuffer(buffer)).toBe(true);
    expect(buffer.buffer).toBe(backing.buffer);
    expect([buffer.byteOffset, buffer.length]).toEqual([4, 4]);
    const headers = { a: '1' };
    const message = outgoingMessage({ key: view, value: 'x', headers }, view);
    expect(Buffer.isBuffer(message.key)).toBe(true);
    expect(message.headers).toEqual({ a: '1' });
    expect(message.headers).not.toBe(headers);
    expect(outgoingMessage({ key: 'k', value: 1 }, view)).toMatchObject({ key: 'k' });
    expect(outgoingMessage({ value: 1 }, view)).toMatchObject({ key: null });
    expect(outgoingMessage({ value: 1 }, view).headers).toBeUndefined();
  });
});
