/**
 * What the safety scanner costs: wirekit's schemaless decode (the scan, then the library's decode)
 * next to the library's decode of the same bytes, on 5,000 records of 8 mixed fields, for
 * MessagePack (msgpackr) and CBOR (cbor-x); the difference is the scan. It also times wirekit's
 * decode with a schema and its encodes against the bare library. It uses only the public entries,
 * so the scan is not timed alone.
 *
 *   npm run build && node build/benchmarks/scan-overhead.js
 */
import { Decoder, Encoder } from 'cbor-x';
import { Packr, Unpackr } from 'msgpackr';
import { createCborCodec } from 'wirekit-ts/cbor';
import type { Codec } from 'wirekit-ts/codecs';
import { createMsgpackCodec } from 'wirekit-ts/msgpack';
import { t } from 'wirekit-ts/schema';

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
  readonly schemaless: Codec<unknown>;
  readonly typed: Codec<unknown>;
}

function compare(format: FormatCase): void {
  const { bytes, schemaless, typed, library: lib } = format;
  console.log(`${format.title}, ${bytes.length} bytes`);
  const library = time(format.libraryDecode);
  row(`${lib.name} ${lib.decode}`, library);
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
  const packr = new Packr({ useRecords: false, variableMapSize: true });
  compare({
    title: 'MessagePack',
    bytes,
    library: { name: 'msgpackr', decode: 'unpack', encode: 'pack' },
    libraryDecode: () => unpackr.unpack(bytes),
    libraryEncode: () => packr.pack(records),
    schemaless: createMsgpackCodec(),
    typed: createMsgpackCodec({ schema: Records }) as Codec<unknown>,
  });
}
{
  const bytes = new Uint8Array(new Encoder(cborOptions).encode(records));
  const decoder = new Decoder({ useRecords: false, mapsAsObjects: true, copyBuffers: true });
  const encoder = new Encoder(cborOptions);
  console.log('');
  compare({
    title: 'CBOR',
    bytes,
    library: { name: 'cbor-x', decode: 'decode', encode: 'encode' },
    libraryDecode: () => decoder.decode(bytes),
    libraryEncode: () => encoder.encode(records),
    schemaless: createCborCodec(),
    typed: createCborCodec({ schema: Records }) as Codec<unknown>,
  });
}
