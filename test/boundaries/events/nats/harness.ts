/**
 * What the NATS binding's tests share: a real nats-server (one per test file), an event schema and
 * its envelope-framed event codec, unique stream names, a handler that records what it was handed,
 * and a look at the stream and the durable consumer through the JetStream API.
 */
import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { eventCodec } from '../../../../src/boundaries/events/event-codec.js';
import type { ReceivedEvent } from '../../../../src/boundaries/events/transport.js';
import { t } from '../../../../src/schema/index.js';

export { type NatsServer, startNats } from '../../../support/servers/nats-server.js';

export const Reading = t.object('Reading', { sensor: t.string(), n: t.int32() });
export type Reading = { sensor: string; n: number };

export const readingCodec = () => eventCodec({ schema: Reading, framing: 'envelope' });

let serial = 0;
/** A stream (and subject) name no other test of the file uses. */
export function unique(prefix: string): { stream: string; subject: string; durable: string } {
  serial += 1;
  const name = `${prefix}_${process.pid}_${serial}`;
  return { stream: name.toUpperCase(), subject: `ev.${name}`, durable: `${name}_reader` };
}

export const readings = (from: number, count: number, sensor = 's1'): { value: Reading }[] =>
  Array.from({ length: count }, (_, i) => ({ value: { sensor, n: from + i } }));

/** A handler recording every event and every batch it is handed (in order). */
export function recorder<T>(body?: (batch: readonly ReceivedEvent<T>[]) => unknown) {
  const events: ReceivedEvent<T>[] = [];
  const batches: (readonly ReceivedEvent<T>[])[] = [];
  return {
    events,
    batches,
    handler: async (batch: readonly ReceivedEvent<T>[]) => {
      batches.push(batch);
      await body?.(batch);
      events.push(...batch);
    },
  };
}

/** Polls `condition` until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Admin {
  readonly nc: NatsConnection;
  readonly jsm: JetStreamManager;
  /** Resolves once the connection is up (again): a request sent while it is down can be lost. */
  connected(): Promise<void>;
}

/** An admin connection of the test's own, to look at streams and consumers. */
export async function admin(url: string): Promise<Admin> {
  const nc = await connect({ servers: url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  let up = true;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') up = false;
      if (status.type === 'reconnect') up = true;
    }
  })();
  return { nc, jsm: await jetstreamManager(nc), connected: () => waitFor(() => up, 'the admin connection') };
}

/** Counts of the values' `n` fields: a key seen twice was handled twice. */
export function tally(events: readonly ReceivedEvent<Reading>[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const event of events) counts.set(event.value.n, (counts.get(event.value.n) ?? 0) + 1);
  return counts;
}
