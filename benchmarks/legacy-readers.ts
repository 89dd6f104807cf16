/**
 * What the cache's legacy readers cost per item on `products`: each built-in reader, with the
 * products schema and without, on the bytes each pre-wirekit pipeline wrote (JSON.stringify, the
 * `snappy` package, @msgpack/msgpack, msgpackr, and the report's old pipeline: a JSON round trip,
 * then @msgpack/msgpack, then snappy), beside native JSON.parse of the same item's text and an
 * enveloped value read by decodeAny. A quick look, in one process: each figure is the fastest of
 * 40 rounds over the 200 items, since the least disturbed round is the best estimate on a shared
 * machine. Run from a checkout (the writers are dev dependencies):
 *
 *   npm run build && node build/benchmarks/legacy-readers.js
 */
import { encode } from '@msgpack/msgpack';
import { pack } from 'msgpackr';
import { compressSync } from 'snappy';
import { type LegacyFormat, legacyFormats, legacyReaders } from 'wirekit-ts/cache';
import { createCodec } from 'wirekit-ts/codecs';
import { decodeAny, encodeEnveloped } from 'wirekit-ts/envelope';
import { Product, products } from 'wirekit-ts/lab';

const items = products(200);
const jsonRoundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const texts = items.map((item) => new TextEncoder().encode(JSON.stringify(item)));

/** Microseconds per item: the fastest of 40 rounds, after 20 to warm up. */
function perItem(read: (bytes: Uint8Array) => unknown, inputs: readonly Uint8Array[]): number {
  for (let round = 0; round < 20; round++) for (const bytes of inputs) read(bytes);
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 40; round++) {
    const started = performance.now();
    for (const bytes of inputs) read(bytes);
    best = Math.min(best, performance.now() - started);
  }
  return (best * 1000) / inputs.length;
}

const native = perItem((bytes) => JSON.parse(Buffer.from(bytes).toString('utf8')), texts);
const codec = createCodec('msgpack', { schema: Product });
const enveloped = items.map((item) => encodeEnveloped(codec, item, { compression: 'snappy' }));
const envelope = perItem((bytes) => decodeAny(bytes, { schema: Product }), enveloped);
const show = (us: number) => `${us.toFixed(1).padStart(6)} µs (${(us / native).toFixed(2)}× JSON.parse)`;
console.log(`products, ${items.length} items; JSON.parse of an item's text: ${native.toFixed(1)} µs`);
console.log(`${'envelope (msgpack + snappy, decodeAny)'.padEnd(70)} schema ${show(envelope)}`);

const cases: readonly (readonly [LegacyFormat, string, (item: unknown, index: number) => Uint8Array])[] = [
  ['json', 'JSON.stringify', (_, index) => texts[index] as Uint8Array],
  ['json+snappy', 'JSON.stringify + snappy (the new pipeline)', (item) => compressSync(JSON.stringify(item))],
  ['msgpack', '@msgpack/msgpack encode', (item) => encode(item)],
  ['msgpack', 'msgpackr pack', (item) => pack(item)],
  ['msgpack', 'JSON round trip + @msgpack/msgpack', (item) => encode(jsonRoundTrip(item))],
  [
    'msgpack+snappy',
    'JSON round trip + @msgpack/msgpack + snappy (the old pipeline)',
    (item) => compressSync(Buffer.from(encode(jsonRoundTrip(item)))),
  ],
];
const [typed, schemaless] = [{ schema: Product }, {}].map(
  (options) => new Map(legacyReaders([...legacyFormats], options).map((reader) => [reader.name, reader])),
);
for (const [name, writer, write] of cases) {
  const inputs = items.map(write);
  const withSchema = typed?.get(name);
  const without = schemaless?.get(name);
  if (withSchema === undefined || without === undefined) throw new Error(`no reader ${name}`);
  const a = perItem((bytes) => withSchema.read(bytes), inputs);
  const b = perItem((bytes) => without.read(bytes), inputs);
  console.log(`${`${name}: ${writer}`.padEnd(70)} schema ${show(a)}   schemaless ${show(b)}`);
}
