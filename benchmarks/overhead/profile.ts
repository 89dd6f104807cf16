/**
 * One overhead case in a loop, for a profiler: encodes and decodes the dataset's units for a
 * number of seconds, nothing else, so that a CPU profile shows the codec and not the benchmark.
 *
 *   npm run build && node --cpu-prof --cpu-prof-dir=prof build/benchmarks/overhead/profile.js \
 *     --dataset documents-each [--seconds 5] [--only encode|decode] 'json wirekit'
 *
 * `--trace-deopt` or `--trace-opt` in place of `--cpu-prof` shows generated functions that stay
 * cold or deoptimise.
 */
import { benchArgs } from '../args.js';
import { prepareCase } from './worker.js';

const usage = `Usage: node build/benchmarks/overhead/profile.js --dataset NAME [--seconds 5] [--only encode|decode] CASE
One overhead case in a loop, for --cpu-prof or --trace-deopt.`;

const { values, positionals } = benchArgs(usage, {
  options: {
    dataset: { type: 'string', default: 'records' },
    seconds: { type: 'string', default: '5' },
    count: { type: 'string', default: '' },
    only: { type: 'string', default: '' },
  },
  allowPositionals: true,
});
const [caseName] = positionals;
if (caseName === undefined) throw new Error(usage);
const { subject, inputs, encoded } = prepareCase(caseName, values.dataset, Number(values.count));
const until = Date.now() + Number(values.seconds) * 1000;
let rounds = 0;
let sink = 0;
while (Date.now() < until) {
  if (values.only !== 'decode') for (const input of inputs) sink += subject.encode(input).length;
  if (values.only !== 'encode')
    for (const bytes of encoded) sink += subject.decode(bytes) === undefined ? 0 : 1;
  rounds++;
}
process.stdout.write(`${subject.name}: ${rounds} rounds in ${values.seconds} s (${sink > 0 ? 'ok' : '-'})\n`);
