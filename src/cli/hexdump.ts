/**
 * A hex dump in the layout of `hexdump -C` / `xxd`, which people already read at a glance: an
 * 8-digit hex offset, 16 bytes per line split 8 + 8, and the printable ASCII in a column.
 */

const perLine = 16;

/** Lines for the first `maxBytes` of `bytes` (all of them when there are fewer). */
export function hexDump(bytes: Uint8Array, maxBytes: number = bytes.length): string[] {
  const shown = bytes.subarray(0, Math.min(bytes.length, maxBytes));
  const lines: string[] = [];
  for (let offset = 0; offset < shown.length; offset += perLine) {
    const row = shown.subarray(offset, offset + perLine);
    const cells = Array.from({ length: perLine }, (_, i) => {
      const byte = row[i];
      return byte === undefined ? '  ' : byte.toString(16).padStart(2, '0');
    });
    // Everything outside printable ASCII becomes '.', so the column never holds control characters.
    const ascii = Array.from(row, (byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.'));
    lines.push(
      `${offset.toString(16).padStart(8, '0')}  ${cells.slice(0, 8).join(' ')}  ${cells.slice(8).join(' ')}  |${ascii.join('')}|`,
    );
  }
  return lines;
}

/** Bytes as one run of lowercase hex digits, as fingerprints are printed. */
export function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
