/**
 * bench:events's consumer, in a process of its own so that its CPU time is its own: forked by
 * run-case.ts with a ConsumerSpec as its argument, it consumes the case's topic, runs the handler
 * on every event, and answers the orchestrator over IPC:
 *
 * - `sample`: its position (last handled offset + 1), events handled, the oldest age of an event
 *   at its handling since the last sample (its lag in time), and its CPU time so far — the
 *   process's (`process.cpuUsage`: every thread, kafkajs's socket work and V8's collector too)
 *   and the event loop thread's (thread-time.ts), with the time that thread waited for a CPU;
 * - `calibrate`: the decode and handler costs alone, per event, on the same events, no broker;
 * - `stop`: stops the consumer and reports the handler's tally.
 */

import type { KafkaClientName } from 'wirekit-ts/events';
import { threadTime } from '../thread-time.js';
import { childSide } from './child-side.js';
import { type BenchEvent, type ConsumerKind, startConsumer } from './consumer-plug.js';
import { newTally } from './handler.js';
import { handleShaped, shapeEvents } from './shapes.js';
import { createSubject, type SubjectSpec } from './subjects.js';

export interface ConsumerSpec {
  readonly brokers: readonly string[];
  readonly topic: string;
  readonly groupId: string;
  readonly kind: ConsumerKind;
  /** The Kafka client library under it (kafkajs unless told). */
  readonly client?: KafkaClientName;
  readonly maxBatch: number;
  readonly subject: SubjectSpec;
  /** Events the calibration decodes (the producer's pool: the same events). */
  readonly poolSize: number;
  readonly seed: number;
}

export interface ConsumerSample {
  readonly type: 'sample';
  /** performance.timeOrigin + performance.now() when answered, ms since the epoch. */
  readonly at: number;
  readonly handled: number;
  /** The offset after the last event handled (0 before any). */
  readonly position: number;
  /** The largest `now − event timestamp` of an event handled since the last sample; undefined if none was. */
  readonly maxAgeMs: number | undefined;
  readonly processCpuUs: number;
  readonly threadCpuUs: number;
  readonly threadWaitedUs: number;
  readonly rssBytes: number;
}

export interface Calibration {
  readonly type: 'calibrate';
  /** Decode alone (bytes → value, as the consumer awaits it), µs of the loop thread per event. */
  readonly decodeUs: number;
  /** The handler alone on decoded values, µs per event. */
  readonly handleUs: number;
  readonly events: number;
}

export type ParentMessage = { type: 'sample' } | { type: 'calibrate'; ms: number } | { type: 'stop' };
export type ConsumerMessage =
  | { type: 'ready' }
  | ConsumerSample
  | Calibration
  | { type: 'stopped'; tally: ReturnType<typeof newTally>; errors: number }
  | { type: 'error'; message: string };

const { send, leave, fail, run } = childSide<ConsumerMessage>();

async function main(spec: ConsumerSpec): Promise<void> {
  const subject = await createSubject(spec.subject);
  const shape = spec.subject.shape ?? 'order';
  const tally = newTally();
  let position = 0;
  let maxAgeMs: number | undefined;
  let errors = 0;
  const consumer = await startConsumer(spec.kind, {
    ...(spec.client === undefined ? {} : { client: spec.client }),
    brokers: spec.brokers,
    groupId: spec.groupId,
    topic: spec.topic,
    maxBatch: spec.maxBatch,
    decode: (bytes) => subject.decode(bytes),
    codec: subject.codec,
    handler: async (events: readonly BenchEvent[]) => {
      for (const event of events) handleShaped(shape, tally, event.value);
      const last = events[events.length - 1];
      if (last === undefined) return;
      position = Number(last.offset) + 1;
      // The chunk's last event is its youngest; its first waited longest.
      const age = Date.now() - (events[0] as BenchEvent).timestamp;
      if (maxAgeMs === undefined || age > maxAgeMs) maxAgeMs = age;
    },
    onError: (error) => {
      errors++;
      process.stderr.write(`consumer: ${error.message}\n`);
    },
  });

  process.on('message', (message: ParentMessage) => {
    if (message.type === 'sample') {
      const thread = threadTime();
      const cpu = process.cpuUsage();
      send({
        type: 'sample',
        at: performance.timeOrigin + performance.now(),
        handled: consumer.handled(),
        position,
        maxAgeMs,
        processCpuUs: cpu.user + cpu.system,
        threadCpuUs: thread.cpuUs,
        threadWaitedUs: thread.waitedUs,
        rssBytes: process.memoryUsage.rss(),
      });
      maxAgeMs = undefined;
    } else if (message.type === 'calibrate') {
      void calibrate(spec, message.ms).then(send, fail);
    } else if (message.type === 'stop') {
      void consumer.stop().then(() => {
        send({ type: 'stopped', tally, errors });
        leave();
      }, fail);
    }
  });
  send({ type: 'ready' });
}

/** Decode and handler costs on the producer's events, each alone, after the run warmed them. */
async function calibrate(spec: ConsumerSpec, ms: number): Promise<Calibration> {
  const subject = await createSubject(spec.subject);
  const encoded: Uint8Array[] = [];
  const shape = spec.subject.shape ?? 'order';
  for (const event of shapeEvents(shape, spec.poolSize, spec.seed)) encoded.push(await subject.encode(event));
  const values: unknown[] = new Array(encoded.length);
  let events = 0;
  const decodeStart = threadTime();
  const decodeEnd = performance.now() + ms;
  do {
    for (let i = 0; i < encoded.length; i++) values[i] = await subject.decode(encoded[i] as Uint8Array);
    events += encoded.length;
  } while (performance.now() < decodeEnd);
  const decodeUs = (threadTime().cpuUs - decodeStart.cpuUs) / events;
  const tally = newTally();
  let handled = 0;
  const handleStart = threadTime();
  const handleEnd = performance.now() + ms / 2;
  do {
    for (const value of values) handleShaped(shape, tally, value);
    handled += values.length;
  } while (performance.now() < handleEnd);
  const handleUs = (threadTime().cpuUs - handleStart.cpuUs) / handled;
  if (tally.mismatches > 0) throw new Error(`${subject.label}: ${tally.mismatches} events decoded altered`);
  return { type: 'calibrate', decodeUs, handleUs, events };
}

run<ConsumerSpec>(main);
