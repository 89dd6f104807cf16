/**
 * What the lab's columns mean, said in the output itself (terminal, Markdown, HTML): a first-time
 * reader meets `loop p99` and `×0.56` with no documentation at hand, and a ratio is only worth
 * reading once its baseline is known.
 */
export type Legend = readonly (readonly [term: string, meaning: string])[];

const ratio =
  "the figure divided by native JSON's for the same values, timed in the same process: JSON.stringify " +
  'plus UTF-8 encoding to encode, UTF-8 decoding plus JSON.parse to decode (for sizes, the length of ' +
  "native JSON's bytes). ×0.50 is half of JSON's time or size; below ×1.00 beats it. Every case's " +
  'process times its own JSON beside the format, so load on the machine weighs on both alike.';

const loop =
  'event-loop delay: the 99th percentile of how late a 1 ms timer fired while the format encoded and ' +
  'decoded unit after unit, yielding between units. It is how long a request arriving meanwhile ' +
  'would wait: about 1 ms is an idle loop; a figure near the encode + decode time means each unit ' +
  'blocks the loop for all of it.';

const direct = 'a library used directly, not through wirekit (native JSON, msgpackr, cbor-x, Fury).';

const check = '"lossless" when every decoded value equals the original, else LOSS and the first difference.';

const unit = 'sizes and times are per unit: the whole batch, or one item where the caption says "per item".';

/** For the terminal table (columns: bytes, zstd, encode, decode, round trip, loop p99, check). */
export const terminalLegend: Legend = [
  ['×N', ratio],
  ['round trip', "encode + decode, as a ratio to native JSON's encode + decode."],
  ['loop p99', loop],
  ['*', direct],
  ['round trip check', check],
  ['unit', unit],
];

/** For the Markdown and HTML reports, whose tables have more columns. */
export const reportLegend: Legend = [
  ['×N', ratio],
  ['median (p75 / p99)', 'the median time of the timed rounds, with the 75th and 99th percentiles.'],
  [
    'items/s, MB/s',
    "throughput: items, and megabytes of the format's own bytes, encoded or decoded a second.",
  ],
  ['loop p99', loop],
  ['peak RSS', "the case process's peak resident memory, everything included."],
  ['*', direct],
  ['round trip check', check],
  ['unit', `${unit} Compressed sizes are per unit too.`],
];
