/**
 * The same memory as a plain Uint8Array. Node's Buffer is a Uint8Array whose `slice` is a view
 * where Uint8Array's is a copy: decoders copy byte strings out of their input with `slice`, so from
 * a Buffer (a file read, a socket's or a Redis client's reply) they would come back as Buffers that
 * share the input's memory, and change when a pooled input buffer is reused.
 */
export function plainBytes(bytes: Uint8Array): Uint8Array {
  return bytes.constructor === Uint8Array
    ? bytes
    : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
