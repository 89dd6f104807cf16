/**
 * protoc --decode_raw, the reference for the schemaless Protobuf reader of `inspect --registry`
 * (protobuf-raw.test.ts): it reads the same field numbers and varints.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { decodeRawProtobuf } from '../../src/cli/protobuf-raw.js';
import { has } from '../support/tools.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (s: string) => [...Buffer.from(s)];

describe('decodeRawProtobuf', () => {
  test.skipIf(!has('protoc'))('protoc --decode_raw reads the same field numbers and varints', () => {
    const message = bytes(
      0x08,
      0x96,
      0x01,
      0x12,
      5,
      ...text('hello'),
      0x18,
      5,
      0x18,
      6,
      0x22,
      2,
      ...text('hi'),
    );
    const shown = execFileSync('protoc', ['--decode_raw'], { input: message }).toString();
    expect(shown).toContain('1: 150');
    expect(shown).toContain('2: "hello"');
    expect(shown.match(/3: [56]/g)).toHaveLength(2);
    // "hi" happens to parse as a message (field 13 = 105): protoc prefers that, wirekit printable text.
    expect(shown).toContain('4 {\n  13: 105\n}');
    expect(decodeRawProtobuf(message)).toEqual({ '1': 150, '2': 'hello', '3': [5, 6], '4': 'hi' });
  });
});
