/**
 * bench:events' command line: the usage text, the option table (node's parseArgs through
 * benchArgs) and the readers of the values every mode shares. main.ts decides what runs.
 */
import type { KafkaClientName } from 'wirekit-ts/events';
import { benchArgs } from '../args.js';
import { type EventShape, eventShapes } from './shapes.js';
import { type EventFormat, eventFormats } from './subjects.js';

/**
 * The lag mode's rates per shape: peaks plain kafkajs + JSON.parse does not sustain here (15 s
 * peaks at load 16-24 left it 5.5 s behind on orders, 4.7 s on documents; it kept up with 25,000
 * orders/s in a 60 s run), near the most one producer process reaches on the same 2 cores.
 */
const defaultLagRates = 'order=5000/30000,document=1000/4500';

const usage = `Usage: node build/benchmarks/events/main.js [--quick] [--formats ${eventFormats.join(',')}]
         [--rates 2500,5000,7000,10000,14000,20000,28000,40000] [--step-seconds 4] [--repetitions 3]
         [--warmup-seconds 2] [--consumer wirekit|kafkajs|both] [--registry start|none|URL] [--max-batch 100]
         [--pool 2000] [--behind-seconds 0.5] [--json FILE] [--cpu-prof DIR]
       node build/benchmarks/events/main.js --summarize FILE [--json FILE]
       node build/benchmarks/events/main.js --mode ceiling [--formats ...] [--shapes ${eventShapes.join(',')}]
         [--events 60000] [--repetitions 3] [--client kafkajs,confluent]
         [--registry start|none|URL] [--max-batch 100] [--json FILE] [--cpu-prof DIR]
       node build/benchmarks/events/main.js --mode lag [--formats ...] [--shapes ${eventShapes.join(',')}]
         [--lag-rates ${defaultLagRates}] [--base-seconds 5] [--peak-seconds 60]
         [--catch-up-seconds 300] [--caught-up-seconds 1] [--repetitions 1] [--json FILE] [--html FILE]
Events through a Kafka broker it starts on loopback, at producer rates stepped up until the consumer
falls behind: events/s consumed, lag, consumer CPU per event and bytes per event, per format.
--consumer wirekit: wirekit's formats on wirekit's kafkaConsumer (what users run), the plain-JSON
baseline on kafkajs's own eachBatch loop; kafkajs: wirekit's formats on that loop too (the codecs
alone apart); both: each wirekit format on both. --registry: Avro and Protobuf in
Confluent framing through wirekit's registry server started on loopback (start, the default) or the
registry at URL; none: in wirekit's envelope.
--mode ceiling: instead of rate steps, each format's backlog of --events orders (a tenth as many
documents) drained by wirekit's consumer and by kafkajs's eachBatch loop with the same decoder (the
raw ceiling), plain JSON on kafkajs beside them, a table per shape, each case in fresh producer and
consumer processes; --client runs every case on each Kafka client library named (kafkajs, confluent:
@confluentinc/kafka-javascript) and sets them side by side.
--mode lag: the producer at a base rate, then --peak-seconds at the peak rate, then the base rate
until the consumer caught up (or --catch-up-seconds passed); per event shape and format the largest
lag in events and in seconds and the time to catch up, each case in fresh processes; a table, and
lag-over-time charts per shape, a line per format, in the --html page.`;

/** The parsed options, as strings and booleans; the readers below check them. */
export const eventsOptions = () =>
  benchArgs(usage, {
    options: {
      quick: { type: 'boolean', default: false },
      mode: { type: 'string', default: 'steps' },
      events: { type: 'string', default: '60000' },
      formats: { type: 'string', default: eventFormats.join(',') },
      rates: { type: 'string' },
      'step-seconds': { type: 'string' },
      repetitions: { type: 'string' },
      'warmup-seconds': { type: 'string' },
      consumer: { type: 'string', default: 'wirekit' },
      client: { type: 'string', default: 'kafkajs' },
      registry: { type: 'string', default: 'start' },
      'max-batch': { type: 'string', default: '100' },
      pool: { type: 'string', default: '2000' },
      'behind-seconds': { type: 'string', default: '0.5' },
      json: { type: 'string' },
      summarize: { type: 'string' },
      'cpu-prof': { type: 'string' },
      shapes: { type: 'string', default: eventShapes.join(',') },
      'lag-rates': { type: 'string', default: defaultLagRates },
      'base-seconds': { type: 'string', default: '5' },
      'peak-seconds': { type: 'string', default: '60' },
      'catch-up-seconds': { type: 'string' },
      'caught-up-seconds': { type: 'string', default: '1' },
      html: { type: 'string' },
    },
  }).values;

export function positive(name: string, text: string): number {
  const value = Number(text);
  if (!(value > 0) || !Number.isFinite(value))
    throw new Error(`--${name} takes a positive number, got ${text}`);
  return value;
}

export function parseClients(text: string): KafkaClientName[] {
  const clients = text.split(',').map((client) => client.trim());
  for (const client of clients) {
    if (client !== 'kafkajs' && client !== 'confluent')
      throw new Error(`--client takes kafkajs, confluent or both (comma-separated), got ${client}`);
  }
  return clients as KafkaClientName[];
}

export function parseShapes(text: string): EventShape[] {
  const shapes = text.split(',').map((shape) => shape.trim()) as EventShape[];
  for (const shape of shapes) {
    if (!eventShapes.includes(shape))
      throw new Error(`--shapes: unknown ${shape}; known: ${eventShapes.join(', ')}`);
  }
  return shapes;
}

export function parseFormats(text: string): EventFormat[] {
  const formats = text.split(',').map((format) => format.trim()) as EventFormat[];
  for (const format of formats) {
    if (!eventFormats.includes(format))
      throw new Error(`--formats: unknown ${format}; known: ${eventFormats.join(', ')}`);
  }
  return formats;
}
