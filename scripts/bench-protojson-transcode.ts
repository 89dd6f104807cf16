/**
 * What the ProtoJSON transcoder (src/codecs/protobuf/protojson-transcode.ts) costs against what a
 * gateway would otherwise do, on the lab's list of 1,000 users (~99 KB of protobuf, ~204 KB of
 * ProtoJSON): transcode(bytes); protobuf.decode then ProtoJSON encode; JSON.parse then
 * JSON.stringify of the same ProtoJSON text (a JSON-to-JSON gateway). The three run interleaved in
 * one process, each round timing 5 calls by the process's CPU time (less disturbed than wall time
 * on a shared machine; WALL=1 for wall time); medians of the rounds, and their ratios to JSON.
 *
 * Here rather than in benchmarks/, which runs the built package through its exports: the
 * transcoder is not an export of the package (rpcGateway uses it from inside).
 *
 *   npx tsx scripts/bench-protojson-transcode.ts [rounds = 40]
 */
import { createProtobufCodec, createProtoJsonCodec } from '../src/codecs/protobuf/index.js';
import { createProtoJsonTranscoder } from '../src/codecs/protobuf/protojson-transcode.js';
import { flatten, User, users } from '../src/lab/index.js';
import { t } from '../src/schema/index.js';

const UserList = t.object('UserList', { users: t.array(User) });
const value = { users: flatten(users(1000, 1)) };
const protobuf = createProtobufCodec({ schema: UserList });
const protojson = createProtoJsonCodec({ schema: UserList });
const transcoder = createProtoJsonTranscoder({ schema: UserList });
const bytes = protobuf.encode(value);
const jsonText = new TextDecoder().decode(protojson.encode(value));

const cases: Record<string, () => unknown> = {
  transcode: () => transcoder.transcode(bytes),
  'decode + ProtoJSON encode': () => protojson.encode(protobuf.decode(bytes)),
  'JSON.parse + JSON.stringify': () => JSON.stringify(JSON.parse(jsonText)),
};
const rounds = Number(process.argv[2] ?? 40);
const warmup = 5;
const callsPerRound = 5;
const times = new Map<string, number[]>(Object.keys(cases).map((name) => [name, []]));

for (let round = 0; round < warmup + rounds; round++) {
  for (const [name, run] of Object.entries(cases)) {
    const cpu = process.env.WALL === undefined ? process.cpuUsage() : undefined;
    const start = performance.now();
    for (let i = 0; i < callsPerRound; i++) run();
    const used = cpu === undefined ? undefined : process.cpuUsage(cpu);
    const ms = used === undefined ? performance.now() - start : (used.user + used.system) / 1000;
    if (round >= warmup) times.get(name)?.push(ms / callsPerRound);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;
const json = median(times.get('JSON.parse + JSON.stringify') as number[]);
for (const [name, values] of times) {
  const ms = median(values);
  console.log(`${name.padEnd(28)} ${ms.toFixed(3)} ms  ${(ms / json).toFixed(2)}× JSON`);
}
