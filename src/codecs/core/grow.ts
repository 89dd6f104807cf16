/**
 * The explicit stacks of the byte scanners (MessagePack, CBOR, JSON) start small and double as a
 * value nests deeper: this is the one copy into a larger typed array they all grow by. Growing is
 * rare (once per doubling of the deepest nesting seen), so it need not be fast.
 */

/** A typed array of `size` elements of `array`'s type, `array`'s elements first, zeros after. */
export function grown<T extends Int32Array | Uint32Array | Uint8Array>(array: T, size: number): T {
  const larger = new (array.constructor as new (length: number) => T)(size);
  larger.set(array);
  return larger;
}
