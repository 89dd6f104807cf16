/**
 * Standard base64 with padding (RFC 4648 §4), written as bytes straight into the transcoder's
 * output: the text util/base64.ts `toBase64` makes, without making the string and encoding it.
 */

const alphabet = new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const pad = 0x3d; // =

/** The bytes base64 takes for `length` bytes. */
export function base64Length(length: number): number {
  return Math.ceil(length / 3) * 4;
}

/** Writes `input[from, to)` as base64 into `out` at `at`; returns the position after it. */
export function writeBase64(
  input: Uint8Array,
  from: number,
  to: number,
  out: Uint8Array,
  at: number,
): number {
  let o = at;
  let i = from;
  for (; i + 2 < to; i += 3) {
    const bits = ((input[i] as number) << 16) | ((input[i + 1] as number) << 8) | (input[i + 2] as number);
    out[o++] = alphabet[bits >>> 18] as number;
    out[o++] = alphabet[(bits >>> 12) & 63] as number;
    out[o++] = alphabet[(bits >>> 6) & 63] as number;
    out[o++] = alphabet[bits & 63] as number;
  }
  const left = to - i;
  if (left === 1) {
    const bits = (input[i] as number) << 16;
    out[o++] = alphabet[bits >>> 18] as number;
    out[o++] = alphabet[(bits >>> 12) & 63] as number;
    out[o++] = pad;
    out[o++] = pad;
  } else if (left === 2) {
    const bits = ((input[i] as number) << 16) | ((input[i + 1] as number) << 8);
    out[o++] = alphabet[bits >>> 18] as number;
    out[o++] = alphabet[(bits >>> 12) & 63] as number;
    out[o++] = alphabet[(bits >>> 6) & 63] as number;
    out[o++] = pad;
  }
  return o;
}
