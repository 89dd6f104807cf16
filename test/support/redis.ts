/**
 * Real Redis for the cache tests: the servers come from ../../benchmarks/redis-server.ts (the cache
 * benchmark starts them the same way). Like the other external tools (tools.ts), a machine without
 * Debian's redis-server and redis-cli skips loudly, and CI (CI=true) fails instead.
 */
import { hasCommand } from './tools.js';

export {
  type RedisCluster,
  type RedisServer,
  startRedis,
  startRedisCluster,
} from './servers/redis-server.js';

/** True when redis-server and redis-cli run here (see hasCommand: a loud skip, or a failure under CI). */
export function hasRedis(): boolean {
  return hasCommand('redis-server', ['--version']) && hasCommand('redis-cli', ['--version']);
}
