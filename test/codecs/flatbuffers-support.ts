/** Hand-built FlatBuffers that the codec's tests and its compiled-vs-interpreter tests share. */
import { Builder } from 'flatbuffers';

/** The finished bytes of a builder, copied out of its buffer. */
export function finish(builder: Builder, root: number): Uint8Array {
  builder.finish(root);
  return builder.asUint8Array().slice();
}

/**
 * A `Category` (name, children) whose every level points twice at the one table below it: 60
 * levels of a few bytes each that, read as a tree, hold 2^60 tables. A reader must stop it by
 * counting, not by running out of memory.
 */
export function categoryDagBomb(): Uint8Array {
  const builder = new Builder(1024);
  let child = 0;
  for (let i = 0; i < 60; i++) {
    builder.startVector(4, 2, 4);
    if (child !== 0) {
      builder.addOffset(child);
      builder.addOffset(child);
    }
    const children = child === 0 ? 0 : builder.endVector();
    builder.startObject(2);
    if (children !== 0) builder.addFieldOffset(1, children, 0);
    child = builder.endObject();
  }
  return finish(builder, child);
}
