/**
 * The Redis Cluster hash slot of a key: CRC16 (the XMODEM variant: polynomial 0x1021, initial 0,
 * no reflection) of the key's UTF-8 bytes, modulo 16,384. A key holding a hash tag, a `{...}` with
 * at least one byte between the braces, is hashed on the tag alone, so `{user:1}:name` and
 * `{user:1}:mail` share a slot and can travel in one MGET.
 *
 * The cluster store groups a batch by slot before it sends anything, because Redis answers a
 * multi-key command whose keys span slots with a CROSSSLOT error. It computes the slot itself
 * rather than reaching for ioredis's own dependency, which a strict package layout would hide.
 */

const slotCount = 16_384;

/** CRC16 of every byte value, built once from the polynomial. */
const crcTable = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
    table[byte] = crc & 0xffff;
  }
  return table;
})();

const encoder = new TextEncoder();

/** The slot of `key` (0 to 16,383), honouring a hash tag as Redis does. */
export function keySlot(key: string): number {
  return crc16(hashedPart(key)) & (slotCount - 1);
}

/**
 * What Redis hashes: the text between the first `{` and the first `}` after it when that text is
 * not empty, else the whole key. Braces are ASCII and never occur inside a UTF-8 multi-byte
 * sequence, so finding them in the string finds them in the bytes.
 */
function hashedPart(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  if (close === -1 || close === open + 1) return key;
  return key.slice(open + 1, close);
}

function crc16(text: string): number {
  let crc = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // Keys are mostly ASCII: hash those bytes straight from the string and encode only the rest.
    if (unit >= 0x80) return crc16Bytes(crc, encoder.encode(text.slice(i)));
    crc = ((crc << 8) & 0xffff) ^ (crcTable[((crc >> 8) ^ unit) & 0xff] as number);
  }
  return crc;
}

function crc16Bytes(start: number, bytes: Uint8Array): number {
  let crc = start;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (crcTable[((crc >> 8) ^ byte) & 0xff] as number);
  return crc;
}
