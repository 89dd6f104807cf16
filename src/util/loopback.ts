/**
 * Whether a host is reachable from this machine alone: what a server checks before it listens
 * without authentication (the schema registry, and `wirekit registry serve` before it starts one).
 */
import { isIPv4, isIPv6 } from 'node:net';

/** True for addresses only this machine reaches: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopback(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  if (isIPv4(bare)) return bare.startsWith('127.');
  if (!isIPv6(bare)) return false;
  return /^(0{0,4}:){2,7}0{0,3}1$/.test(bare) || /^::ffff:127\./i.test(bare);
}
