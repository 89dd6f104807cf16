/**
 * Big-endian reads for the MessagePack and CBOR sources, straight from the input's bytes, with no
 * DataView. A source used to make a DataView over each input in `reset`: for a tiny message that
 * was 12.7 % (documents) to 22 % (messages) of a decode, whether it read a float or not. Integers
 * are put together from their bytes; floats are copied, byte-reversed where the machine is
 * little-endian, into one shared 8-byte scratch and read through a Float32Array/Float64Array on
 * it (a read is synchronous and nothing re-enters between the copy and the load, so one scratch
 * serves every source). The callers check that the bytes are within the input first.
 */

const scratch = new ArrayBuffer(8);
const scratchBytes = new Uint8Array(scratch);
const scratch32 = new Float32Array(scratch, 0, 1);
const scratch64 = new Float64Array(scratch);
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function readUint16(bytes: Uint8Array, at: number): number {
  return ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
}

export function readUint32(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at] as number) * 0x100_0000 +
    (((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number))
  );
}

export function readInt8(bytes: Uint8Array, at: number): number {
  return ((bytes[at] as number) << 24) >> 24;
}

export function readInt16(bytes: Uint8Array, at: number): number {
  return (((bytes[at] as number) << 24) >> 16) | (bytes[at + 1] as number);
}

export function readInt32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] as number) << 24) |
    ((bytes[at + 1] as number) << 16) |
    ((bytes[at + 2] as number) << 8) |
    (bytes[at + 3] as number)
  );
}

export function readBigUint64(bytes: Uint8Array, at: number): bigint {
  return (BigInt(readUint32(bytes, at)) << 32n) | BigInt(readUint32(bytes, at + 4));
}

export function readBigInt64(bytes: Uint8Array, at: number): bigint {
  return (BigInt(readInt32(bytes, at)) << 32n) | BigInt(readUint32(bytes, at + 4));
}

export function readFloat32(bytes: Uint8Array, at: number): number {
  const s = scratchBytes;
  if (littleEndian) {
    s[0] = bytes[at + 3] as number;
    s[1] = bytes[at + 2] as number;
    s[2] = bytes[at + 1] as number;
    s[3] = bytes[at] as number;
  } else {
    s[0] = bytes[at] as number;
    s[1] = bytes[at + 1] as number;
    s[2] = bytes[at + 2] as number;
    s[3] = bytes[at + 3] as number;
  }
  return scratch32[0] as number;
}

export function readFloat64(bytes: Uint8Array, at: number): number {
  const s = scratchBytes;
  if (littleEndian) {
    s[0] = bytes[at + 7] as number;
    s[1] = bytes[at + 6] as number;
    s[2] = bytes[at + 5] as number;
    s[3] = bytes[at + 4] as number;
    s[4] = bytes[at + 3] as number;
    s[5] = bytes[at + 2] as number;
    s[6] = bytes[at + 1] as number;
    s[7] = bytes[at] as number;
  } else {
    for (let i = 0; i < 8; i++) s[i] = bytes[at + i] as number;
  }
  return scratch64[0] as number;
}
