/**
 * Oneof groups (schema/oneofs.ts) mean one thing in all seven formats: a value with one member (or
 * none) round-trips; two members present are refused alike by validate() and every encoder,
 * compiled and interpreted (WK_VALIDATION_FAILED at the object, naming the group and both fields);
 * and bytes holding two members, written for the same fields without the group, are refused by
 * every decoder but Protocol Buffers', which keeps protobuf's rule: the last member on the wire wins.
 */
import { describe, expect, test } from 'vitest';
import { type FormatName, formatNames } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { isWirekitError, type Schema, t, validate } from '../../src/index.js';

const Order = t.object('Order', { sku: t.string() });
const members = {
  label: t.string(),
  name: t.optional(t.string()),
  id: t.optional(t.int64()),
  order: t.optional(Order),
  note: t.optional(t.string()),
};
const Msg = t.object('Msg', members, { oneofs: { kind: ['name', 'id', 'order'] } });
/** The same fields without the group: the writer of bytes no wirekit value of Msg has. */
const Loose = t.object('Msg', members);

/** The value sits in a field `v`; Arrow's codec takes the row's schema and encodes a table of rows. */
const root = (_format: FormatName, schema: Schema): Schema => t.object('Holder', { v: schema });
const input = (format: FormatName, value: unknown) => (format === 'arrow' ? [{ v: value }] : { v: value });
const output = (format: FormatName, decoded: unknown) =>
  ((format === 'arrow' ? (decoded as unknown[])[0] : decoded) as { v: unknown }).v;

function failure(run: () => unknown): { code: string; path: unknown; message: string } | undefined {
  try {
    run();
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    return { code: error.code, path: error.path, message: error.message };
  }
  return undefined;
}

const both = { label: 'x', name: 'a', order: { sku: 's' } };

test('validate reports two members present at the object', () => {
  expect(
    validate(t.object('Holder', { v: Msg }), { v: both }).map((issue) => [issue.code, issue.path]),
  ).toEqual([['oneof_conflict', ['v']]]);
});

describe.each(formatNames.flatMap((format) => [true, false].map((compile) => ({ format, compile }))))(
  '$format (compile: $compile)',
  ({ format, compile }) => {
    const codec = createCodec(format, { schema: root(format, Msg), compile });

    test('one member or none round-trips', () => {
      for (const value of [
        { label: 'x' },
        { label: 'x', id: 0n, note: 'n' },
        { label: '', order: { sku: '' } },
      ]) {
        expect(output(format, codec.decode(codec.encode(input(format, value) as never)))).toEqual(value);
      }
    });

    test('two members present are refused on encode, naming the group and both fields', () => {
      const refused = failure(() => codec.encode(input(format, both) as never));
      expect(refused).toMatchObject({
        code: 'WK_VALIDATION_FAILED',
        path: format === 'arrow' ? [0, 'v'] : ['v'],
        message: expect.stringContaining(
          "'name' and 'order' are both present, but oneof 'kind' holds at most one",
        ),
      });
    });

    test(
      format === 'protobuf'
        ? 'the last member on the wire wins'
        : 'two members present are refused on decode',
      () => {
        const bytes = createCodec(format, { schema: root(format, Loose), compile }).encode(
          input(format, both) as never,
        );
        if (format === 'protobuf') {
          // `order` (4) follows `name` (2) on the wire, so it is the one kept.
          expect(output(format, codec.decode(bytes))).toEqual({ label: 'x', order: { sku: 's' } });
          return;
        }
        const refused = failure(() => codec.decode(bytes));
        expect(refused?.message).toContain(
          "'name' and 'order' are both present, but oneof 'kind' holds at most one",
        );
        expect(refused?.code).toMatch(/^WK_DECODE_/);
      },
    );
  },
);
