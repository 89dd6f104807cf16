/**
 * Who gets a connection to the registry server when many want one. A global cap alone lets one
 * client that opens (and reopens) idle sockets take every place and lock everyone else out, so
 * sockets are counted per client address as well:
 *
 * - no address holds more than `perAddress` connections at once;
 * - the last `reserved` places of `max` go only to addresses that hold none yet, so a client
 *   arriving while others fill the server still gets in;
 * - beyond `max`, nobody does.
 *
 * A refused socket is destroyed at once, before a TLS handshake or a byte of HTTP is spent on it.
 * IPv6 clients are counted by their /64, the block one host is usually given, or one host could
 * take a place per address it makes up. The guard counts; idle sockets are cut by the server's
 * timers (server.ts), which is what gives the places back.
 */
import { isIPv4, isIPv6, type Server, type Socket } from 'node:net';

export interface ConnectionLimits {
  /** The most connections open at once. */
  readonly max: number;
  /** The most connections one address (an IPv6 /64) holds at once. */
  readonly perAddress: number;
  /** Places kept for addresses that hold no connection yet. */
  readonly reserved: number;
}

/**
 * The group a client address is counted in: itself for IPv4, its /64 for IPv6.
 * @internal exported for its tests.
 */
export function addressGroup(address: string | undefined): string {
  if (address === undefined) return '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1] as string;
  if (isIPv4(address) || !isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('%')[0]?.split('::') ?? [];
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Counts the server's connections by address and destroys those past the limits. */
export function guardConnections(server: Server, limits: ConnectionLimits): void {
  const open = new Map<string, number>();
  let total = 0;
  server.on('connection', (socket: Socket) => {
    const group = addressGroup(socket.remoteAddress);
    const held = open.get(group) ?? 0;
    const full = total >= limits.max;
    const inReserve = total >= limits.max - limits.reserved && held > 0;
    if (full || inReserve || held >= limits.perAddress) {
      socket.destroy();
      return;
    }
    open.set(group, held + 1);
    total += 1;
    socket.once('close', () => {
      total -= 1;
      const left = (open.get(group) ?? 1) - 1;
      if (left === 0) open.delete(group);
      else open.set(group, left);
    });
  });
}
