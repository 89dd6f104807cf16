/**
 * A DataView over a whole ArrayBuffer, kept for the next input that lies in the same one. Readers
 * need a DataView for floats (and big-endian wide integers); making one per input cost ~60 ns, a
 * sixth of decoding a 20-byte message. Inputs usually come in batches from one buffer (a network
 * read, a slab of encoded outputs, Node's Buffer pool), so the last view is reused when the buffer
 * is the same, and the reader adds the input's byteOffset to its positions.
 *
 * Only buffers up to 1 MiB are remembered, so that the view kept here never pins a large input
 * after its decode.
 */

const rememberUpTo = 1 << 20;
let lastBuffer: ArrayBufferLike | undefined;
let lastView: DataView | undefined;

export function bufferView(buffer: ArrayBufferLike): DataView {
  if (buffer === lastBuffer) return lastView as DataView;
  const view = new DataView(buffer);
  if (buffer.byteLength <= rememberUpTo) {
    lastBuffer = buffer;
    lastView = view;
  }
  return view;
}
