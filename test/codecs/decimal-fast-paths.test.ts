/**
 * The compiled CBOR, MessagePack and Protocol Buffers codecs test a decimal against its bounds in
 * one scan (CBOR's `decimalWithin`, `decimalFits` inline in protobuf) and call the schema's rule
 * only for what falls outside; this holds them to their interpreters, which call the rule on every
 * value: the same bytes, or the same error (code, message, path), for texts at every edge of the
 * bounds and of the short paths (15 digits, 2^53), and for text read back from a wider writer.
 */
import { describe, expect, test } from 'vitest';
import { createCodec, type FormatName } from '../../src/codecs/index.js';
import { t } from '../../src/schema/index.js';
import { outcome } from '../support/outcome.js';

const hex = (bytes: unknown) => Buffer.from(bytes as Uint8Array).toString('hex');

const texts: unknown[] = ['0', '-0', '0.00', '-0.00', '0.5', '-0.05', '12.5', '12.50', '100', '-1.5'];
texts.push('9999999999.99', '-9999999999.99', '99999999999.99', '999999999999999', '0.123');
texts.push('999999999999.99', '9999999999999.99', '-99999999999999.99', '90071992547409.91');
texts.push('01.5', '1.', '.5', '-', '', '+1', '1e3', '1.2.3', '--1', '0x10', '１２', 1.5, null);

/** A decimal as a field, an array's item and a map's value, which compiled protobuf writes apart. */
const row = (amount: unknown) => ({ amount, list: ['1', amount], byKey: { k: amount } }) as never;

const formats: FormatName[] = ['cbor', 'msgpack', 'protobuf'];

describe.each(formats)('%s: compiled decimals against the interpreter', (format) => {
  const bounded = [
    t.decimal({ precision: 12, scale: 2 }),
    t.decimal({ precision: 18, scale: 2 }),
    t.decimal({ precision: 15, scale: 0 }),
    t.decimal({ scale: 2 }),
    t.decimal({ precision: 4 }),
    t.decimal(),
  ];
  const codecs = (schema: (typeof bounded)[number]) => {
    const Row = t.object('Row', { amount: schema, list: t.array(schema), byKey: t.map(t.string(), schema) });
    return [true, false].map((compile) => createCodec(format, { schema: Row, compile }));
  };

  test.each(bounded)('the same bytes or the same refusal: %o', (schema) => {
    const [compiled, interpreter] = codecs(schema) as [
      ReturnType<typeof createCodec>,
      ReturnType<typeof createCodec>,
    ];
    for (const amount of texts) {
      const got = outcome(() => hex(compiled.encode(row(amount))));
      expect(got, String(amount)).toStrictEqual(outcome(() => hex(interpreter.encode(row(amount)))));
      if (!got.ok) continue;
      const bytes = compiled.encode(row(amount));
      expect(
        outcome(() => compiled.decode(bytes)),
        String(amount),
      ).toStrictEqual(outcome(() => interpreter.decode(bytes)));
    }
  });

  test.each(bounded)('text a wider writer wrote is read or refused alike: %o', (schema) => {
    const [compiled, interpreter] = codecs(schema) as [
      ReturnType<typeof createCodec>,
      ReturnType<typeof createCodec>,
    ];
    const [writer] = codecs(t.decimal());
    for (const amount of texts.filter((text) => typeof text === 'string' && /^-?\d/.test(text))) {
      const bytes = outcome(() => (writer as ReturnType<typeof createCodec>).encode(row(amount)));
      if (!bytes.ok) continue;
      const input = bytes.value as Uint8Array;
      expect(
        outcome(() => compiled.decode(input)),
        String(amount),
      ).toStrictEqual(outcome(() => interpreter.decode(input)));
    }
  });
});
