/**
 * One measurement of `npm run bench:registry`, in a process of its own (main.ts starts it and reads
 * the JSON line it prints):
 *
 * - `parse SHAPE SIZE READER`: reading a generated .proto text into resolved types, by wirekit's
 *   reader (parseRegisteredSchema: parse, link and the wirekit schema) or protobufjs's (parse + resolveAll), the median of a few runs
 *   after one to warm up. Shapes: a oneof of SIZE fields, a message of SIZE fields, SIZE messages
 *   referring to each other.
 * - `memory COUNT`: the resident memory of a registry server (in this process, its schema worker
 *   included) and its main thread's heap before, after COUNT Avro schemas of 0.9 MiB each are
 *   registered over HTTP, and after as many again (what one more schema costs once the parsed
 *   cache is full).
 */
import { createRequire } from 'node:module';
import { parseRegisteredSchema, startRegistryServer } from 'wirekit-ts/events';
import { median } from 'wirekit-ts/lab';

export type ProtoShape = 'oneof' | 'fields' | 'messages';
export const protoShapes: readonly ProtoShape[] = ['oneof', 'fields', 'messages'];
export type ProtoReader = 'wirekit' | 'protobufjs';

export interface ParseResult {
  readonly ms: number;
  readonly chars: number;
}

export interface MemorySnapshot {
  readonly rssMb: number;
  readonly heapMb: number;
}

export interface MemoryResult {
  readonly before: MemorySnapshot;
  readonly after: MemorySnapshot;
  readonly afterTwice: MemorySnapshot;
  readonly schemaChars: number;
}

/** Field numbers past Protobuf's reserved 19000-19999. */
const number = (i: number) => (i < 18_000 ? i + 1 : i + 2_001);

export function protoText(shape: ProtoShape, size: number): string {
  const fields = (indent: string) =>
    Array.from({ length: size }, (_, i) => `${indent}int32 f${i} = ${number(i)};`).join('\n');
  switch (shape) {
    case 'oneof':
      return `syntax = "proto3";\nmessage M {\n  oneof o {\n${fields('    ')}\n  }\n}\n`;
    case 'fields':
      return `syntax = "proto3";\nmessage M {\n${fields('  ')}\n}\n`;
    case 'messages':
      return `syntax = "proto3";\n${Array.from({ length: size }, (_, i) => `message M${i} { M${(i + 1) % size} next = 1; int32 v = 2; }`).join('\n')}\n`;
  }
}

function parseOnce(reader: ProtoReader, text: string): void {
  if (reader === 'wirekit') {
    // The registry's own path for a PROTOBUF schema: parse, link, and the wirekit schema it reads,
    // with the size limits lifted so the largest shapes are timed rather than refused.
    parseRegisteredSchema(
      { schemaType: 'PROTOBUF', schema: text },
      { maxSchemaLength: Number.MAX_SAFE_INTEGER, maxSchemaNodes: Number.MAX_SAFE_INTEGER },
    );
    return;
  }
  const protobufjs = createRequire(import.meta.url)('protobufjs') as typeof import('protobufjs');
  protobufjs.parse(text, new protobufjs.Root(), { keepCase: true }).root.resolveAll();
}

function measureParse(shape: ProtoShape, size: number, reader: ProtoReader): ParseResult {
  const text = protoText(shape, size);
  parseOnce(reader, text);
  const runs: number[] = [];
  // Fewer runs where one takes seconds.
  const count = size >= 16_000 ? 1 : 5;
  for (let run = 0; run < count; run++) {
    const started = performance.now();
    parseOnce(reader, text);
    runs.push(performance.now() - started);
  }
  return { ms: median(runs), chars: text.length };
}

/**
 * An Avro record of about 0.9 MiB of text, as dense as the default node bound allows (16,000
 * fields, 48,000 nodes: the most parsed objects per character), distinct per `seed`.
 */
export function largeAvro(seed: number): string {
  return JSON.stringify({
    type: 'record',
    name: `Wide${seed}`,
    fields: Array.from({ length: 16_000 }, (_, i) => ({
      name: `f_${seed}_${i}_`.padEnd(32, 'x'),
      type: i % 3 === 0 ? 'string' : 'long',
    })),
  });
}

async function measureMemory(count: number): Promise<MemoryResult> {
  const server = await startRegistryServer({ maxBodyBytes: 2 * 1024 * 1024 });
  const registerSchema = async (subject: string, schema: string) => {
    const response = await fetch(`${server.url}/subjects/${subject}/versions`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
      body: JSON.stringify({ schema }),
    });
    if (response.status !== 200) throw new Error(`${subject}: ${response.status} ${await response.text()}`);
  };
  // The worker started and the code warm, before the baseline.
  await registerSchema(
    'warm-up',
    JSON.stringify({ type: 'record', name: 'Small', fields: [{ name: 'a', type: 'int' }] }),
  );
  const settle = async (): Promise<MemorySnapshot> => {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { rss, heapUsed } = process.memoryUsage();
    return { rssMb: rss / 2 ** 20, heapMb: heapUsed / 2 ** 20 };
  };
  const before = await settle();
  for (let i = 0; i < count; i++) await registerSchema(`wide-${i}`, largeAvro(i));
  const after = await settle();
  for (let i = count; i < 2 * count; i++) await registerSchema(`wide-${i}`, largeAvro(i));
  const afterTwice = await settle();
  await server.close();
  return { before, after, afterTwice, schemaChars: largeAvro(0).length };
}

const [kind, ...args] = process.argv.slice(2);
if (kind === 'parse') {
  const [shape, size, reader] = args as [ProtoShape, string, ProtoReader];
  process.stdout.write(`${JSON.stringify(measureParse(shape, Number(size), reader))}\n`);
} else if (kind === 'memory') {
  process.stdout.write(`${JSON.stringify(await measureMemory(Number(args[0])))}\n`);
}
