/**
 * The URL-like sources `wirekit inspect` reads from instead of a file (kafka://, redis://): the
 * scheme is matched without regard to case, and what follows splits at the first slash into an
 * authority (hosts, ports, credentials) and the path's segments, which each source then reads.
 * Split by hand rather than by `URL`, which would decode the segments (a Redis key's %2F) and
 * refuse Kafka's comma-separated list of brokers.
 */

export function hasScheme(source: string, scheme: string): boolean {
  return source.toLowerCase().startsWith(scheme);
}

/** The authority after `scheme`, and the segments of the path (none when there is no slash). */
export function splitSourceUrl(source: string, scheme: string): { authority: string; segments: string[] } {
  const rest = source.slice(scheme.length);
  const slash = rest.indexOf('/');
  if (slash === -1) return { authority: rest, segments: [] };
  return { authority: rest.slice(0, slash), segments: rest.slice(slash + 1).split('/') };
}
