/**
 * The packed package with the NATS client (@nats-io/transport-node and @nats-io/jetstream, both
 * CommonJS), as a user's Node runs it (test/support/packed-package.ts), against a real nats-server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { NatsServer } from '../boundaries/events/nats/harness.js';
import { hasNats } from '../support/nats.js';
import { installPacked, type PackedProject } from '../support/packed-package.js';
import { startNats } from '../support/servers/nats-server.js';

describe.skipIf(!hasNats())('the packed package with the NATS client, in plain Node', () => {
  let server: NatsServer;
  let project: PackedProject;

  beforeAll(async () => {
    project = installPacked();
    server = await startNats();
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    project?.remove();
  });

  test('natsProducer publishes to a stream it creates; natsConsumer reads the events back', async () => {
    const result = await project.runScript('nats-events.mjs', {
      url: server.url,
      stream: 'PACKED',
      subject: 'packed.events',
    });
    expect(result).toEqual({
      received: [
        { sensor: 's1', n: 1 },
        { sensor: 's2', n: 2 },
        { sensor: 's3', n: 3 },
      ],
    });
  }, 60_000);
});
