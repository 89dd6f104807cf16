/**
 * Short ASCII strings made from bytes in one call: every reader's short strings (utf8.ts
 * `shortAscii`, under Avro, Protocol Buffers and FlatBuffers), the compiled MessagePack and CBOR
 * decoders' strings (keyed/compiled.ts, `readShortAscii`) and CBOR's decimal fractions written out
 * as text (cbor/decode/decimal.ts). The bytes must be ASCII; callers check.
 */
import { codegenAvailable, SourceBuilder } from './codegen.js';

/** ASCII strings up to this many bytes are made by `asciiByCodes`. */
export const asciiByCodesUpTo = 32;

/**
 * `String.fromCharCode(b[s], b[s + 1], …, b[s + n - 1])` for each n up to `asciiByCodesUpTo`, one
 * call with every byte an argument: V8 makes a flat string of exactly n characters at once. Per
 * string, on Node 20 (best of 5 × 20,000): 12 ns for 6 bytes, 22 ns for 13, 26 ns for 20, 42 ns
 * for 32, against 14-20 ns for the TextReader's window cuts (12 bytes at most) and 48-78 ns for a
 * latin1Slice call, which wins again from about 48 bytes. Written by the code generator from a
 * constant template (nothing of a schema or an input in it); undefined where code cannot be
 * generated, and callers then make the string another way.
 */
export const asciiByCodes: ((bytes: Uint8Array, start: number, length: number) => string) | undefined =
  (() => {
    if (!codegenAvailable) return undefined;
    const s = new SourceBuilder();
    s.line('function ascii(b, s, n) {');
    s.line('  switch (n) {');
    s.line("    case 0: return '';");
    for (let n = 1; n <= asciiByCodesUpTo; n++) {
      const codes = Array.from({ length: n }, (_, i) => (i === 0 ? 'b[s]' : `b[s + ${i}]`));
      s.line(`    case ${n}: return String.fromCharCode(${codes.join(', ')});`);
    }
    s.line('  }');
    s.line("  throw new RangeError('longer than asciiByCodesUpTo');");
    s.line('}');
    return s.compile<(bytes: Uint8Array, start: number, length: number) => string>('ascii');
  })();
