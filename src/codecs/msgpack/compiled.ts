/**
 * MessagePack, compiled: the keyed-format generator (src/codecs/keyed/compiled.ts) with
 * MessagePack's writer, which pre-encodes the keys, map headers and constants. Short ASCII strings
 * in the two short forms (fixstr, str 8) are read by the generated code; all others by the reader.
 */
import { type CompiledFormat, keyedFormat } from '../keyed/compiled.js';
import { MsgpackEmitter } from './encode/emitter.js';

/** The MessagePack format as the generator takes it. */
export const msgpackCompiled: CompiledFormat = keyedFormat(() => new MsgpackEmitter(), {
  fixFrom: 0xa0,
  fixTo: 0xc0,
  oneByteHead: 0xd9,
});
