/**
 * What the safety scanner costs: the time of a scan next to the library's decode of the same bytes,
 * on 5,000 records of 8 mixed fields, for MessagePack (msgpackr) and CBOR (cbor-x). It also times
 * wirekit's whole decode and encode, schemaless and with a schema, against the bare library.
 *
 *   npm run build && node dist/bench/scan-overhead.js
 */
import { Decoder, Encoder } from 'cbor-x';
import { Packr, Unpackr } from 'msgpackr';
import { CborScanner } from '../codecs/cbor/decode/scan.js';
import { createCborCodec } from '../codecs/cbor/index.js';
import type { Codec } from '../codecs/core/codec.js';
import { resolveLimits } from '../codecs/core/limits.js';
import { MsgpackScanner } from '../codecs/msgpack/decode/scan.js';
import { createMsgpackCodec } from '../codecs/msgpack/index.js';
import { t } from '../schema/index.js';

const Record = t.object('Record', {
  id: t.int64({ as: 'number' }),
  name: t.string(),
  email: t.string(),
  active: t.bool(),
  score: t.float64(),
  tags: t.array(t.string()),
  created: t.timestamp(),
  city: t.string(),
});
const Records = t.array(Record);

const records = Array.from({ length: 5000 }, (_, i) => ({
  id: i * 7919,
  name: `user${i}`,
  email: `user${i}@example.com`,
  active: i % 3 === 0,
  score: i / 7,
  tags: ['a', 'bb'],
  created: new Date(1_700_000_000_000 + i),
  city: i % 2 === 0 ? 'Zürich' : 'Lyon',
}));

/** Milliseconds per call, the median of 15 rounds of about 100 ms each. */
function time(run: () => unknown): number {
  for (let i = 0; i < 20; i++) run();
  const rounds: number[] = [];
  for (let r = 0; r < 15; r++) {
    let calls = 0;
    const start = performance.now();
    while (performance.now() - start < 100) {
      run();
      calls++;
    }
    rounds.push((performance.now() - start) / calls);
  }
  rounds.sort((a, b) => a - b);
  return rounds[7] as number;
}

function row(name: string, ms: number, base?: number): void {
  const ratio = base === undefined ? '' : `  (${((ms / base) * 100).toFixed(0)}% of the library's decode)`;
  console.log(`${name.padEnd(44)} ${ms.toFixed(3).padStart(8)} ms${ratio}`);
}

/** One format's rows: the library's decode is the yardstick of the scan and of wirekit's decodes. */
interface FormatCase {
  readonly title: string;
  readonly bytes: Uint8Array;
  /** The library's name and the names of its two calls, for the rows. */
  readonly library: { readonly name: string; readonly decode: string; readonly encode: string };
  readonly libraryDecode: () => unknown;
  readonly libraryEncode: () => unknown;
  readonly scanner: {
    reset(): void;
    scan(bytes: Uint8Array, from: number, to: number, depth: number): unknown;
  };
  readonly schemaless: Codec<unknown>;
  readonly typed: Codec<unknown>;
}

function compare(format: FormatCase): void {
  const { bytes, schemaless, typed, scanner, library: lib } = format;
  console.log(`${format.title}, ${bytes.length} bytes`);
  const library = time(format.libraryDecode);
  row(`${lib.name} ${lib.decode}`, library);
  const scan = () => {
    scanner.reset();
    return scanner.scan(bytes, 0, bytes.length, 0);
  };
  row('wirekit scan', time(scan), library);
  row(
    `wirekit decode, schemaless (scan + ${lib.name})`,
    time(() => schemaless.decode(bytes)),
    library,
  );
  row(
    'wirekit decode, schema',
    time(() => typed.decode(bytes)),
    library,
  );
  row(`${lib.name} ${lib.encode}`, time(format.libraryEncode));
  row(
    'wirekit encode, schemaless',
    time(() => schemaless.encode(records)),
  );
  row(
    'wirekit encode, schema',
    time(() => typed.encode(records)),
  );
}

const limits = resolveLimits(undefined);
// Plain CBOR from cbor-x (its typings lack useTag259ForMaps).
const cborOptions = {
  useRecords: false,
  variableMapSize: true,
  tagUint8Array: false,
  useTag259ForMaps: false,
} as object;

{
  const bytes = new Uint8Array(new Packr({ useRecords: false, variableMapSize: true }).pack(records));
  const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true, copyBuffers: true });
  const scanner = new MsgpackScanner(limits, { utf8: true, unsafeKeys: true, records: false, charge: true });
  const packr = new Packr({ useRecords: false, variableMapSize: true });
  compare({
    title: 'MessagePack',
    bytes,
    library: { name: 'msgpackr', decode: 'unpack', encode: 'pack' },
    libraryDecode: () => unpackr.unpack(bytes),
    libraryEncode: () => packr.pack(records),
    scanner,
    schemaless: createMsgpackCodec(),
    typed: createMsgpackCodec({ schema: Records }) as Codec<unknown>,
  });
}
{
  const bytes = new Uint8Array(new Encoder(cborOptions).encode(records));
  const decoder = new Decoder({ useRecords: false, mapsAsObjects: true, copyBuffers: true });
  const scanner = new CborScanner(limits, { utf8: true, unsafeKeys: true, charge: true });
  const encoder = new Encoder(cborOptions);
  console.log('');
  compare({
    title: 'CBOR',
    bytes,
    library: { name: 'cbor-x', decode: 'decode', encode: 'encode' },
    libraryDecode: () => decoder.decode(bytes),
    libraryEncode: () => encoder.encode(records),
    scanner,
    schemaless: createCborCodec(),
    typed: createCborCodec({ schema: Records }) as Codec<unknown>,
  });
}
