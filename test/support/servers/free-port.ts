/** TCP ports free on 127.0.0.1 right now (the OS picks them), for servers a benchmark or test starts. */
import { createServer, type Server } from 'node:net';

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
}

/**
 * `count` distinct free ports. Every listener stays open until all are taken: the OS may hand the
 * same ephemeral port out again as soon as one is closed, and two `freePort()` calls in a row did
 * once give a Kafka broker the same port for two listeners.
 */
export async function freePorts<N extends number>(count: N): Promise<Ports<N>> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      ports.push(await listenOnAnyPort(server));
    }
    return ports as Ports<N>;
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

/** A tuple of N numbers for the small counts callers destructure (`const [a, b] = await freePorts(2)`). */
type Ports<N extends number, Acc extends number[] = []> = number extends N
  ? number[]
  : Acc['length'] extends N
    ? Acc
    : Ports<N, [...Acc, number]>;

function listenOnAnyPort(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}
