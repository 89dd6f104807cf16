/**
 * The packed package's WebSocket plugin (over @fastify/websocket and ws, CommonJS) and client (over
 * undici's WebSocket), as a user's Node runs them (test/support/packed-package.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installPacked, type PackedProject } from '../support/packed-package.js';

describe('the packed package with @fastify/websocket and undici, in plain Node', () => {
  let project: PackedProject;

  beforeAll(() => {
    project = installPacked();
  }, 60_000);

  afterAll(() => project?.remove());

  test('the client negotiates MessagePack with the plugin and reads its answers', async () => {
    expect(await project.runScript('ws.mjs', {})).toEqual({
      format: 'msgpack',
      received: [
        { symbol: 'ASML', price: 2.5 },
        { symbol: 'ADYEN', price: 5 },
      ],
    });
  }, 60_000);
});
