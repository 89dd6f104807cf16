/**
 * Byte arrays copied end to end into one: what every multi-part read ends with (a stream's chunks
 * gathered into a frame, compressed blocks into a body, WebSocket fragments into a message), in
 * util/ so that each layer, and the CLI, joins bytes the same way.
 */

/** `parts` copied end to end into one array of `size` bytes (their total). */
export function joinBytes(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
