/**
 * CBOR, compiled: the keyed-format generator (src/codecs/keyed/compiled.ts) with CBOR's writer,
 * which pre-encodes the keys, map headers and constants. Short ASCII strings in the two short heads
 * (major type 3 with the length in the head, 0x60–0x77, or in one byte after it, 0x78) are read by
 * the generated code; all others (a self-describe tag in front, chunked strings, longer forms) by
 * the source itself.
 */
import { type CompiledFormat, keyedFormat } from '../keyed/compiled.js';
import { CborEmitter } from './encode/emitter.js';

/** The CBOR format as the generator takes it. */
export const cborCompiled: CompiledFormat = keyedFormat(() => new CborEmitter(), {
  fixFrom: 0x60,
  fixTo: 0x78,
  oneByteHead: 0x78,
});
