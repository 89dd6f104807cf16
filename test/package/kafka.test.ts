/**
 * The packed package with kafkajs, as a user's Node runs it (test/support/packed-package.ts),
 * against a real broker: the registry's Kafka store from the API and from `wirekit registry serve
 * --store kafka:`, the producer and consumer, and `wirekit inspect kafka://`. kafkajs is CommonJS,
 * and Node's ESM loader exposes only some of its exports by name (not ConfigResourceTypes, which
 * the store once read so and could not start); vitest's interop exposes them all.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTopics, kafkaFor } from '../boundaries/events/kafka/harness.js';
import { hasKafka, type KafkaBroker, startKafka } from '../support/kafka.js';
import { installPacked, type PackedProject } from '../support/packed-package.js';

const schema = JSON.stringify({ type: 'record', name: 'Event', fields: [{ name: 'id', type: 'long' }] });

describe.skipIf(!hasKafka())('the packed package with kafkajs, in plain Node', () => {
  let broker: KafkaBroker;
  let project: PackedProject;

  beforeAll(async () => {
    project = installPacked();
    broker = await startKafka();
  }, 180_000);

  afterAll(async () => {
    await broker?.stop();
    project?.remove();
  }, 60_000);

  test('kafkaStore: a second registry server loads the id the first one registered', async () => {
    const result = await project.runScript('kafka-store.mjs', {
      bootstrap: broker.bootstrap,
      topic: '_schemas_api',
    });
    expect(result).toEqual({
      registered: { id: 1 },
      loaded: { subject: 'events-value', version: 1, id: 1, schema },
    });
  }, 90_000);

  test('`wirekit registry serve --store kafka:` serves, and after a restart has what it stored', async () => {
    const store = `kafka:${broker.bootstrap}/_schemas_cli`;
    const first = await project.startCli(['registry', 'serve', '--port', '0', '--store', store]);
    const registered = await fetch(`${first.firstLine}/subjects/cli-value/versions`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
      body: JSON.stringify({ schema }),
    });
    expect(await registered.json()).toEqual({ id: 1 });
    expect((await first.stop()).code).toBe(0);

    const second = await project.startCli(['registry', 'serve', '--port', '0', '--store', store]);
    const loaded = await fetch(`${second.firstLine}/subjects/cli-value/versions/latest`);
    expect(await loaded.json()).toEqual({ subject: 'cli-value', version: 1, id: 1, schema });
    expect((await second.stop()).code).toBe(0);

    // The record the store wrote, read back by `wirekit inspect kafka://` (kafkajs again).
    const inspected = await project.runCli([
      'inspect',
      `kafka://${broker.bootstrap}/_schemas_cli/0/0`,
      '--json',
    ]);
    expect(inspected.stderr).toBe('');
    expect(inspected.code).toBe(0);
    const report = JSON.parse(inspected.stdout) as { key: unknown; value: unknown };
    expect(JSON.stringify(report)).toContain('cli-value');
  }, 120_000);

  test('kafkaProducer sends; kafkaConsumer reads the events back', async () => {
    const topic = 'packed-events';
    await createTopics(kafkaFor(broker.bootstrap), [topic], 1);
    const result = await project.runScript('kafka-events.mjs', { bootstrap: broker.bootstrap, topic });
    expect(result).toEqual({
      received: [
        { sensor: 's1', n: 1 },
        { sensor: 's2', n: 2 },
        { sensor: 's3', n: 3 },
      ],
    });
  }, 90_000);
});
