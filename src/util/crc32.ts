/**
 * CRC-32 (IEEE 802.3, the zlib/PNG polynomial), as Avro's snappy codec appends to each block.
 * node:zlib gained crc32 only in Node 20.15/22.2, below the engines floor, and browsers have none.
 */
const table = /* @__PURE__ */ (() => {
  const out = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    out[n] = c >>> 0;
  }
  return out;
})();

/** The CRC-32 of `bytes`, continuing from `previous` (the CRC of the bytes before them). */
export function crc32(bytes: Uint8Array, previous = 0): number {
  let crc = ~previous >>> 0;
  for (let i = 0; i < bytes.length; i++) {
    crc = (table[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  }
  return ~crc >>> 0;
}
