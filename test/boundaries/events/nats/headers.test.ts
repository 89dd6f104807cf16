/**
 * The key and headers of a NATS event through NATS's own header encoding (no server needed): any
 * key and any header the producer accepts come back unchanged, what it refuses it refuses with a
 * code, and headers read from the wire (anyone can publish to a subject) never pollute a prototype.
 * Plus the rule that the NATS packages stay optional: the binding imports them only on first use.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headers, MsgHdrsImpl } from '@nats-io/transport-node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkHeaders, readHeaders, writeHeaders } from '../../../../src/boundaries/events/nats/headers.js';
import { WirekitError } from '../../../../src/errors/index.js';

const onTheWire = (write: (target: MsgHdrsImpl) => void) => {
  const target = headers() as MsgHdrsImpl;
  write(target);
  return MsgHdrsImpl.decode(target.encode());
};

const headerName = fc
  .stringMatching(/^[!-9;-~]{1,20}$/)
  .filter((name) => !/^(nats-|wirekit-key)/i.test(name));
const headerValue = fc
  .string({ unit: 'grapheme', maxLength: 40 })
  .filter((value) => !/[\r\n]|^\s|\s$/.test(value));

describe('NATS event keys and headers', () => {
  it('carries any key and any accepted header unchanged', () => {
    fc.assert(
      fc.property(
        fc.option(
          fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.uint8Array({ maxLength: 30 })),
          {
            nil: undefined,
          },
        ),
        fc.dictionary(headerName, headerValue, { maxKeys: 6 }),
        (key, given) => {
          checkHeaders(given);
          const read = readHeaders(onTheWire((target) => writeHeaders(target, key, given)));
          const expected =
            key === undefined ? undefined : typeof key === 'string' ? new Uint8Array(Buffer.from(key)) : key;
          expect(read.key).toEqual(expected);
          expect({ ...read.headers }).toEqual({ ...given });
        },
      ),
    );
  });

  it('refuses headers NATS cannot carry unchanged, or that the binding reserves, with WK_VALIDATION_FAILED', () => {
    const refused: Record<string, string>[] = [
      { 'a b': 'v' },
      { 'a:b': 'v' },
      { '': 'v' },
      { ok: 'x\r\ny' },
      { ok: ' edge' },
      { 'Nats-Msg-Id': '1' },
      { 'wirekit-key': 'k' },
      { n: 1 as unknown as string },
    ];
    for (const bad of refused) {
      const error = (() => {
        try {
          checkHeaders(bad);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error, JSON.stringify(bad)).toBeInstanceOf(WirekitError);
      expect((error as WirekitError).code).toBe('WK_VALIDATION_FAILED');
      expect((error as WirekitError).path).toEqual(['headers', Object.keys(bad)[0]]);
    }
  });

  it('reads hostile headers from the wire without throwing or touching a prototype', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('__proto__', 'constructor', 'prototype', 'wirekit-key-b64', 'wirekit-key', 'x'),
            fc.string({ maxLength: 20 }).filter((v) => !/[\r\n]/.test(v)),
          ),
          { maxLength: 8 },
        ),
        (entries) => {
          const read = readHeaders(
            onTheWire((target) => {
              for (const [name, value] of entries) target.append(name, value);
            }),
          );
          expect(Object.getPrototypeOf(read.headers)).toBe(null);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          expect(Object.keys(read.headers).every((name) => !name.startsWith('wirekit-key'))).toBe(true);
        },
      ),
    );
  });
});

describe('the NATS binding without its packages', () => {
  it('imports @nats-io/* for types only, and loads them at run time on first use', () => {
    const root = new URL('../../../../src/boundaries/events/', import.meta.url).pathname;
    const files = readdirSync(join(root, 'nats')).map((name) => join('nats', name));
    for (const file of files) {
      const text = readFileSync(join(root, file), 'utf8');
      const statics = [...text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'(@nats-io\/[^']+)'/gm)];
      expect(
        statics.map((match) => match[1]),
        file,
      ).toEqual([]);
    }
    const connection = readFileSync(join(root, 'nats/connection.ts'), 'utf8');
    // Dynamic imports (through importPeer), not static ones.
    expect(connection).toContain("() => import('@nats-io/jetstream')");
    expect(connection).toContain("() => import('@nats-io/transport-node')");
  });
});
