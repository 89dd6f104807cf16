/**
 * Validates UTF-8 in place, allocating nothing, for the scanners: the libraries beneath decode
 * invalid bytes to U+FFFD without a word, so the scanner refuses them before the library runs.
 * A hand loop beats a fatal TextDecoder here because record strings are short and mostly ASCII,
 * and a TextDecoder call needs a view object and a native transition per string.
 */
export function isUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  let i = asciiEnd(bytes, start, end);
  while (i < end) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    if (lead < 0xc2 || lead > 0xf4) return false;
    const c1 = bytes[i + 1] as number;
    if (lead < 0xe0) {
      if (i + 1 >= end || (c1 & 0xc0) !== 0x80) return false;
      i += 2;
      continue;
    }
    if (lead < 0xf0) {
      // E0 needs A0..BF (no overlongs); ED needs 80..9F (no surrogates).
      if (i + 2 >= end || (c1 & 0xc0) !== 0x80 || ((bytes[i + 2] as number) & 0xc0) !== 0x80) return false;
      if ((lead === 0xe0 && c1 < 0xa0) || (lead === 0xed && c1 > 0x9f)) return false;
      i += 3;
      continue;
    }
    // F0 needs 90..BF (no overlongs); F4 needs 80..8F (nothing above U+10FFFF).
    if (
      i + 3 >= end ||
      (c1 & 0xc0) !== 0x80 ||
      ((bytes[i + 2] as number) & 0xc0) !== 0x80 ||
      ((bytes[i + 3] as number) & 0xc0) !== 0x80
    ) {
      return false;
    }
    if ((lead === 0xf0 && c1 < 0x90) || (lead === 0xf4 && c1 > 0x8f)) return false;
    i += 4;
  }
  return true;
}

/**
 * Where the run of ASCII bytes from `start` ends: the first byte at or above 0x80, or `end`.
 * Most strings are ASCII, so this is the scanners' hottest loop: it tests four bytes per branch
 * (OR-ed, so unaligned reads are fine), then the last few one at a time.
 */
export function asciiEnd(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  const last4 = end - 4;
  while (
    i <= last4 &&
    (((bytes[i] as number) | (bytes[i + 1] as number) | (bytes[i + 2] as number) | (bytes[i + 3] as number)) &
      0x80) ===
      0
  )
    i += 4;
  while (i < end && (bytes[i] as number) < 0x80) i++;
  return i;
}
