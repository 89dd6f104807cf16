/**
 * A registry server on a Kafka topic whose whole process stops, as in a long GC pause, at the worst
 * moment: after it decided it leads and chose an id, before its write reaches Kafka. The pause
 * blocks the event loop (no heartbeat, no timer runs) until the file RELEASE exists. For
 * kafka-fencing.test.ts:
 *
 *   node --import tsx pausing-leader.ts BOOTSTRAP TOPIC SESSION_MS RELEASE
 *
 * Prints its URL, then `paused` when it stops and `append refused CODE` or `append done` after.
 */
import { existsSync } from 'node:fs';
import { kafkaStore } from '../../../../src/boundaries/events/registry/kafka-store.js';
import { isRegistryError } from '../../../../src/boundaries/events/registry/registry-error.js';
import { startRegistryServer } from '../../../../src/boundaries/events/registry/server.js';
import type { RegistryStore } from '../../../../src/boundaries/events/registry/store.js';

/** Registrations under this subject are the ones that stop the process. */
const pausedSubject = 'paused';

const [bootstrap = '', topic = '', sessionMs = '6000', release = ''] = process.argv.slice(2);
const inner = kafkaStore({ brokers: [bootstrap], topic, sessionTimeoutMs: Number(sessionMs) });
const sleeper = new Int32Array(new SharedArrayBuffer(4));

const store: RegistryStore = {
  ...inner,
  async append(record) {
    if (record.kind === 'schema' && record.subject === pausedSubject && !existsSync(release)) {
      process.stdout.write('paused\n');
      while (!existsSync(release)) Atomics.wait(sleeper, 0, 0, 50);
    }
    try {
      await inner.append(record);
      if (record.kind === 'schema' && record.subject === pausedSubject) process.stdout.write('append done\n');
    } catch (error) {
      process.stdout.write(`append refused ${isRegistryError(error) ? error.errorCode : String(error)}\n`);
      throw error;
    }
  },
};

const server = await startRegistryServer({ store });
process.stdout.write(`${server.url}\n`);
