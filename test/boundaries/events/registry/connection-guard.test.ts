/**
 * Idle sockets cannot lock the registry: one address holding or reopening 1,100 idle sockets, or
 * forty addresses holding 28 each, leave legitimate clients from another address served; and a
 * socket that sends nothing is cut within the idle timer (2 s by default), not after the ~12 s of
 * Node's header timer. Every client address used here is loopback (all of 127/8 is, on Linux).
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { addressGroup } from '../../../../src/boundaries/events/registry/connection-guard.js';
import {
  type RegistryServer,
  type RegistryServerOptions,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';

let server: RegistryServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.close();
  server = undefined;
});

interface Held {
  /** When each socket closed, in ms after it was opened (undefined while open). */
  readonly lifetimes: (number | undefined)[];
}

/**
 * Opens `count` sockets from `localAddress` that never send a byte, a hundred at a time: a burst
 * past the kernel's accept queue would leave sockets that look connected here but that the server
 * has not seen yet, which would blur what the counts below say.
 */
async function holdIdle(port: number, localAddress: string, count: number): Promise<Held> {
  const lifetimes: (number | undefined)[] = [];
  for (let start = 0; start < count; start += 100) {
    const batch: Promise<void>[] = [];
    for (let index = start; index < Math.min(count, start + 100); index++) {
      const opened = performance.now();
      const socket = connect({ port, host: '127.0.0.1', localAddress });
      sockets.push(socket);
      lifetimes.push(undefined);
      socket.on('error', () => {});
      socket.on('close', () => {
        lifetimes[index] = performance.now() - opened;
      });
      // Settled once connected (then held) or closed (refused at once).
      batch.push(
        new Promise((resolve) => {
          socket.once('connect', () => setTimeout(resolve, 20));
          socket.once('close', () => resolve());
        }),
      );
    }
    await Promise.all(batch);
  }
  return { lifetimes };
}

const openCount = (held: readonly Held[]) =>
  held.flatMap((one) => one.lifetimes).filter((lifetime) => lifetime === undefined).length;

/**
 * How many sockets stay open once the server has taken them all in (it closes the refused ones as
 * it accepts them): the count once it held still for half a second.
 */
async function openOnceSettled(held: readonly Held[]): Promise<number> {
  let last = openCount(held);
  let stillSince = performance.now();
  const deadline = performance.now() + 15_000;
  while (performance.now() - stillSince < 500 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = openCount(held);
    if (now !== last) [last, stillSince] = [now, performance.now()];
  }
  return last;
}

/** Twenty requests from 127.0.0.1, one after another on fresh connections: how many were answered 200. */
async function legitimate(url: string): Promise<number> {
  let served = 0;
  for (let index = 0; index < 20; index++) {
    try {
      const response = await fetch(`${url}/schemas/types`, { headers: { connection: 'close' } });
      await response.arrayBuffer();
      if (response.status === 200) served += 1;
    } catch {
      // Refused at connect: not served.
    }
  }
  return served;
}

async function start(options: RegistryServerOptions): Promise<RegistryServer> {
  server = await startRegistryServer(options);
  return server;
}

describe('idle sockets do not lock others out', () => {
  test('1,100 idle sockets from one address: the others are served while they are held', async () => {
    // A long idle timer, so that only the per-address cap can be what keeps the others served.
    const { url, port } = await start({ idleTimeoutMs: 60_000 });
    const attacker = await holdIdle(port, '127.0.0.2', 1_100);
    expect(await openOnceSettled([attacker])).toBe(64);
    expect(await legitimate(url)).toBe(20);
  }, 60_000);

  test('forty addresses holding 28 idle sockets each fill the server; a new address still gets in', async () => {
    const { url, port } = await start({ idleTimeoutMs: 60_000 });
    const held: Held[] = [];
    for (let index = 0; index < 40; index++) held.push(await holdIdle(port, `127.0.0.${index + 2}`, 28));
    // Up to the reserve (960 of 1,024) anyone got in; past it, only an address holding none yet:
    // the server is near full, yet places are left, which is what lets 127.0.0.1 in.
    const open = await openOnceSettled(held);
    expect(open).toBeGreaterThanOrEqual(1024 - 64);
    expect(open).toBeLessThanOrEqual(1024 - 64 + 40);
    expect(await legitimate(url)).toBe(20);
  }, 60_000);

  test('with the defaults, silent sockets are cut within the idle timer, and the server serves on', async () => {
    const { url, port } = await start({});
    const attacker = await holdIdle(port, '127.0.0.2', 1_100);
    expect(await legitimate(url)).toBe(20);
    const deadline = performance.now() + 15_000;
    while (attacker.lifetimes.includes(undefined) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const longest = Math.max(...attacker.lifetimes.map((lifetime) => lifetime ?? Number.POSITIVE_INFINITY));
    // The idle timer is 2 s; the room above it is for a loaded machine. Before, the header timer cut them at ~12 s.
    expect(longest).toBeLessThan(7_000);
    expect(await legitimate(url)).toBe(20);
  }, 60_000);

  test('a socket that stops after one request is cut by the keep-alive timer', async () => {
    const { port } = await start({ idleTimeoutMs: 300 });
    const socket = connect({ port, host: '127.0.0.1' });
    sockets.push(socket);
    const opened = performance.now();
    const closed = new Promise<number>((resolve) =>
      socket.on('close', () => resolve(performance.now() - opened)),
    );
    socket.on('error', () => {});
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.write('GET /schemas/types HTTP/1.1\r\nHost: x\r\n\r\n');
    const lifetime = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(lifetime).toBeLessThan(5_000);
  });
});

describe('how clients are counted', () => {
  test('IPv4 by address, IPv4-mapped IPv6 as IPv4, IPv6 by its /64', () => {
    expect(addressGroup('127.0.0.2')).toBe('127.0.0.2');
    expect(addressGroup('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8::5')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
