/**
 * WebSocket subprotocol negotiation (issue 17's first piece): the client's order of preference
 * wins among what the server serves; no wirekit protocol offered means JSON in text frames with no
 * protocol selected; a hostile header is bounded.
 */
import { describe, expect, test } from 'vitest';
import { chooseSubprotocol, maxOfferedSubprotocols, parseSubprotocols } from '../../src/negotiate/index.js';

const served = ['json', 'msgpack', 'cbor', 'protobuf', 'avro'] as const;

describe('parseSubprotocols', () => {
  test('splits, trims and keeps the client order, from one header or several', () => {
    expect(parseSubprotocols(' wirekit.cbor , wirekit.json,chat ')).toEqual([
      'wirekit.cbor',
      'wirekit.json',
      'chat',
    ]);
    expect(parseSubprotocols(['wirekit.avro', 'wirekit.msgpack, x'])).toEqual([
      'wirekit.avro',
      'wirekit.msgpack',
      'x',
    ]);
    expect(parseSubprotocols(undefined)).toEqual([]);
    expect(parseSubprotocols('')).toEqual([]);
  });

  test('drops what is no token, and reads at most the first 32 offers', () => {
    expect(parseSubprotocols('wirekit.json, a b, "q", ,ok')).toEqual(['wirekit.json', 'ok']);
    expect(parseSubprotocols('x'.repeat(65))).toEqual([]);
    const many = Array.from({ length: 10_000 }, (_, i) => `p${i}`).join(',');
    expect(parseSubprotocols(many)).toHaveLength(maxOfferedSubprotocols);
  });
});

describe('chooseSubprotocol', () => {
  test.each(served)('wirekit.%s alone selects it', (format) => {
    expect(chooseSubprotocol([`wirekit.${format}`], served)).toEqual({
      format,
      protocol: `wirekit.${format}`,
      frames: format === 'json' ? 'text' : 'binary',
    });
  });

  test("several: the client's first that the server serves", () => {
    expect(
      chooseSubprotocol(['wirekit.flatbuffers', 'wirekit.cbor', 'wirekit.msgpack'], served),
    ).toMatchObject({
      format: 'cbor',
      protocol: 'wirekit.cbor',
    });
    expect(chooseSubprotocol(['wirekit.msgpack', 'wirekit.cbor'], ['cbor', 'json'])).toMatchObject({
      format: 'cbor',
    });
  });

  test('none offered, or only unknown ones: JSON in text frames and no protocol selected', () => {
    const plain = { format: 'json', protocol: undefined, frames: 'text' };
    expect(chooseSubprotocol([], served)).toEqual(plain);
    expect(chooseSubprotocol(['chat', 'wirekit.', 'wirekit.xml', 'WIREKIT.MSGPACK'], served)).toEqual(plain);
  });
});
