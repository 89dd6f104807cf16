/**
 * Loading an optional peer package (ioredis, kafkajs, the NATS client, DuckDB, pg, prom-client,
 * @fastify/websocket) on first use, so that an entry point loads without the packages it does not
 * need; one that is missing fails with what to install, the loader's own error as the cause. The
 * import stays at the caller (`() => import('ioredis')`), where bundlers and the type checker see
 * its literal name. The error is a WirekitError with the code WK_PEER_MISSING.
 */
import { WirekitError } from '../errors/index.js';

export async function importPeer<T>(load: () => Promise<T>, user: string, pkg: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw peerMissing(user, pkg, error);
  }
}

/**
 * The same for a synchronous API, which cannot wait for an import: the caller requires the peer
 * (`() => require('prom-client')`, with a `require` from `createRequire(import.meta.url)`), which
 * works because those peers are CommonJS. Node caches the module once, so it is the very instance
 * the application imports (a registry, a class to test with instanceof).
 */
export function requirePeer<T>(load: () => T, user: string, pkg: string): T {
  try {
    return load();
  } catch (error) {
    throw peerMissing(user, pkg, error);
  }
}

function peerMissing(user: string, pkg: string, cause: unknown): WirekitError {
  return new WirekitError('WK_PEER_MISSING', `${user} needs the ${pkg} package (npm install ${pkg})`, {
    cause,
  });
}
