/**
 * A real NATS server with JetStream for the event tests (Debian's nats-server); a machine without
 * it skips loudly, and CI (CI=true) fails instead (see tools.ts).
 */
import { hasCommand } from './tools.js';

export function hasNats(): boolean {
  return hasCommand('nats-server', ['--version']);
}
