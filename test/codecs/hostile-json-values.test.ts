/**
 * The hostile suite's json-kind cases (test/support/suites/hostile-input.ts), for every format, compiled and interpreted.
 * The formats that carry a json value as JSON text (Protocol Buffers, Avro, FlatBuffers, Arrow) get
 * their bytes from the same row with a string in the json value's place, which they write alike;
 * JSON gets the text in place; MessagePack and CBOR, which carry json values as their own maps and arrays, get bytes built
 * by hand, since their encoders refuse to write such values.
 */
import { createCodec, type FormatName } from '../../src/codecs/index.js';
import { t } from '../../src/schema/index.js';
import {
  describeHostileJsonValues,
  type HostileJson,
  hostileJsonText,
} from '../support/suites/hostile-input.js';

const Row = t.object('Row', { data: t.json() });
const TextRow = t.object('Row', { data: t.string() });
const utf8 = (text: string) => [...new TextEncoder().encode(text)];

/** The json value in MessagePack (`cbor` false) or CBOR: each case's value, item by item. */
function selfDescribing(json: HostileJson, cbor: boolean): Uint8Array {
  const map1 = cbor ? 0xa1 : 0x81;
  const array1 = cbor ? 0x81 : 0x91;
  const text = (value: string) => [(cbor ? 0x60 : 0xa0) | value.length, ...utf8(value)];
  let value: number[];
  if ('unsafeKey' in json) {
    // {"a":[{key:{"polluted":"yes"}}]}
    value = [
      map1,
      ...text('a'),
      array1,
      map1,
      ...text(json.unsafeKey),
      map1,
      ...text('polluted'),
      ...text('yes'),
    ];
  } else if ('levels' in json) {
    value = new Array(json.levels).fill(array1);
    value[json.levels - 1] = cbor ? 0x80 : 0x90;
  } else {
    // [1, Infinity]: a half-precision float in CBOR, a float64 in MessagePack.
    value = cbor ? [0x82, 0x01, 0xf9, 0x7c, 0x00] : [0x92, 0x01, 0xcb, 0x7f, 0xf0, 0, 0, 0, 0, 0, 0];
  }
  return new Uint8Array([map1, ...text('data'), ...value]);
}

const textFormats: readonly FormatName[] = ['json', 'protobuf', 'avro', 'flatbuffers', 'arrow'];

for (const compile of [true, false]) {
  const label = compile ? '' : ' (interpreted)';
  for (const format of textFormats) {
    const writer = createCodec(format, { schema: TextRow, compile });
    describeHostileJsonValues(`${format}${label}`, {
      codec: createCodec(format, { schema: Row, compile }) as never,
      row: (json) => {
        // JSON writes the text as a string: its json value is the text itself.
        if (format === 'json') return new TextEncoder().encode(`{"data":${hostileJsonText(json)}}`);
        const row = { data: hostileJsonText(json) };
        return writer.encode((format === 'arrow' ? [row] : row) as never);
      },
    });
  }
  for (const format of ['msgpack', 'cbor'] as const)
    describeHostileJsonValues(`${format}${label}`, {
      codec: createCodec(format, { schema: Row, compile }) as never,
      row: (json) => selfDescribing(json, format === 'cbor'),
    });
}
