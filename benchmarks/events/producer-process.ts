/**
 * bench:events's producer, in a process of its own (forked by run-case.ts with a ProducerSpec):
 * kafkajs with acks=-1, paced to a fixed rate by a token bucket — every tick it sends the events
 * that came due since the start of the step, as one batch, with up to `maxInFlight` sends awaiting
 * their acknowledgement. Events fall due whatever the sends in flight are doing, so a producer that
 * cannot keep up finishes late (reported) instead of lowering the rate silently.
 *
 * It encodes a pool of events once (`poolSize` seeded events of the subject's shape, in the format's own codec and
 * framing) and sends them round and round: what is measured is the consumer, and on 2 cores an
 * encoding producer would take the CPU the consumer is measured on.
 *
 * IPC: `{ type: 'step', rate, seconds }` → `{ type: 'stepped', ... }` once every event of the step
 * is acknowledged; `{ type: 'stop' }` disconnects.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel, type Message } from 'kafkajs';
import { childSide } from './child-side.js';
import { shapeEvents } from './shapes.js';
import { createSubject, type SubjectSpec } from './subjects.js';

export interface ProducerSpec {
  readonly brokers: readonly string[];
  readonly topic: string;
  readonly subject: SubjectSpec;
  readonly poolSize: number;
  readonly seed: number;
  /** Sends awaiting their acknowledgement at once. */
  readonly maxInFlight: number;
  /** Most events per send. */
  readonly maxPerSend: number;
}

export interface StepDone {
  readonly type: 'stepped';
  readonly rate: number;
  readonly events: number;
  /** From the first send to the last event of the step falling due (the step's length when on time). */
  readonly sendSeconds: number;
  /** From the first send to the last acknowledgement. */
  readonly ackSeconds: number;
  /** The longest any event waited past the moment it fell due before it was handed to kafkajs. */
  readonly maxLateMs: number;
}

export type ProducerMessage =
  | { type: 'ready'; payloadBytes: { mean: number; min: number; max: number } }
  | StepDone
  | { type: 'error'; message: string };

const { send, leave, fail, run } = childSide<ProducerMessage>();

async function main(spec: ProducerSpec): Promise<void> {
  const subject = await createSubject(spec.subject);
  const pool: Buffer[] = [];
  for (const event of shapeEvents(spec.subject.shape ?? 'order', spec.poolSize, spec.seed)) {
    const bytes = await subject.encode(event);
    pool.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  const sizes = pool.map((bytes) => bytes.byteLength);
  const kafka = new Kafka({
    clientId: 'bench-producer',
    brokers: [...spec.brokers],
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  let cursor = 0;

  const step = async (rate: number, seconds: number): Promise<StepDone> => {
    const total = Math.round(rate * seconds);
    const started = performance.now();
    const acks: Promise<unknown>[] = [];
    let inFlight = 0;
    let sent = 0;
    let maxLateMs = 0;
    let failure: unknown;
    while (sent < total) {
      if (failure !== undefined) throw failure;
      const elapsed = performance.now() - started;
      const due = Math.min(total, Math.floor((rate * elapsed) / 1000));
      while (sent < due && inFlight < spec.maxInFlight) {
        const count = Math.min(due - sent, spec.maxPerSend);
        // The oldest event of this send fell due at (sent + 1) / rate.
        maxLateMs = Math.max(maxLateMs, elapsed - ((sent + 1) * 1000) / rate);
        const messages: Message[] = new Array(count);
        for (let i = 0; i < count; i++) {
          messages[i] = { value: pool[cursor] as Buffer };
          cursor = (cursor + 1) % pool.length;
        }
        inFlight++;
        sent += count;
        acks.push(
          producer.send({ topic: spec.topic, acks: -1, messages }).then(
            () => {
              inFlight--;
            },
            (error: unknown) => {
              inFlight--;
              failure = error;
            },
          ),
        );
      }
      await sleep(2);
    }
    const sendSeconds = (performance.now() - started) / 1000;
    await Promise.all(acks);
    if (failure !== undefined) throw failure;
    return {
      type: 'stepped',
      rate,
      events: total,
      sendSeconds,
      ackSeconds: (performance.now() - started) / 1000,
      maxLateMs: Math.max(0, maxLateMs),
    };
  };

  process.on('message', (message: { type: 'step'; rate: number; seconds: number } | { type: 'stop' }) => {
    if (message.type === 'step') void step(message.rate, message.seconds).then(send, fail);
    else void producer.disconnect().then(() => leave(), fail);
  });
  send({
    type: 'ready',
    payloadBytes: {
      mean: sizes.reduce((sum, size) => sum + size, 0) / sizes.length,
      min: Math.min(...sizes),
      max: Math.max(...sizes),
    },
  });
}

run<ProducerSpec>(main);
