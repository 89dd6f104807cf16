/**
 * Arrow IPC messages built by hand with the FlatBuffers builder, for hostile-input tests that need
 * shapes no Arrow writer produces.
 */
import * as flatbuffers from 'flatbuffers';

/** An IPC stream whose schema nests `levels` lists, built without recursion. */
export function nestedListStream(levels: number): Uint8Array {
  const b = new flatbuffers.Builder(64 + levels * 32);
  const name = b.createString('item');
  b.startObject(2);
  b.addFieldInt32(0, 32, 0);
  b.addFieldInt8(1, 1, 0);
  const intType = b.endObject();
  b.startObject(0);
  const listType = b.endObject();
  const field = (typeType: number, type: number, child: number | undefined) => {
    let vector = 0;
    if (child !== undefined) {
      b.startVector(4, 1, 4);
      b.addOffset(child);
      vector = b.endVector();
    }
    b.startObject(7);
    b.addFieldOffset(0, name, 0);
    b.addFieldInt8(1, 1, 0);
    b.addFieldInt8(2, typeType, 0);
    b.addFieldOffset(3, type, 0);
    if (vector !== 0) b.addFieldOffset(5, vector, 0);
    return b.endObject();
  };
  let node = field(2, intType, undefined);
  for (let i = 0; i < levels; i++) node = field(12, listType, node);
  return schemaStream(b, node);
}

/**
 * An IPC stream (schema message and end marker) of one field `name` of Arrow type number
 * `typeType` (Schema.fbs Type) with an empty type table and `children` Int32 children: enough to
 * name a type wirekit refuses, such as RunEndEncoded (22) or ListView (25), which apache-arrow's
 * JavaScript writer cannot make.
 */
export function oneFieldStream(name: string, typeType: number, children = 0): Uint8Array {
  const b = new flatbuffers.Builder(256);
  const intField = (childName: string) => {
    const fieldName = b.createString(childName);
    b.startObject(2);
    b.addFieldInt32(0, 32, 0);
    b.addFieldInt8(1, 1, 0);
    const intType = b.endObject();
    b.startObject(7);
    b.addFieldOffset(0, fieldName, 0);
    b.addFieldInt8(1, 1, 0);
    b.addFieldInt8(2, 2, 0);
    b.addFieldOffset(3, intType, 0);
    return b.endObject();
  };
  const childOffsets = Array.from({ length: children }, (_, i) => intField(`c${i}`));
  b.startVector(4, childOffsets.length, 4);
  for (const child of childOffsets.reverse()) b.addOffset(child);
  const childVector = b.endVector();
  const fieldName = b.createString(name);
  b.startObject(0);
  const type = b.endObject();
  b.startObject(7);
  b.addFieldOffset(0, fieldName, 0);
  b.addFieldInt8(1, 1, 0);
  b.addFieldInt8(2, typeType, 0);
  b.addFieldOffset(3, type, 0);
  b.addFieldOffset(5, childVector, 0);
  return schemaStream(b, b.endObject());
}

/** The stream of a schema message (V5) whose one field is `field`, built in `b`, and its end marker. */
function schemaStream(b: flatbuffers.Builder, field: number): Uint8Array {
  b.startVector(4, 1, 4);
  b.addOffset(field);
  const fields = b.endVector();
  b.startObject(4);
  b.addFieldOffset(1, fields, 0);
  const schema = b.endObject();
  b.startObject(5);
  b.addFieldInt16(0, 4, 0);
  b.addFieldInt8(1, 1, 0);
  b.addFieldOffset(2, schema, 0);
  b.finish(b.endObject());
  return framed(b.asUint8Array());
}

/** A schema message's metadata with its 8-byte prefix and padding, then the end-of-stream marker. */
function framed(metadata: Uint8Array): Uint8Array {
  const padded = (metadata.length + 7) & ~7;
  const out = new Uint8Array(8 + padded + 8);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xffffffff, true);
  view.setInt32(4, padded, true);
  out.set(metadata, 8);
  view.setUint32(8 + padded, 0xffffffff, true);
  return out;
}
