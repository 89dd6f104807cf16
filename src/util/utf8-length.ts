/**
 * The UTF-8 length of part of a string, counted without encoding it: for the string limits
 * (maxStringBytes counts UTF-8 bytes), where only strings long enough to matter are measured.
 * A lone surrogate counts as three bytes (what WTF-8 gives it; such strings are refused anyway).
 */
export function utf8Length(text: string, start = 0, end = text.length): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < end) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
