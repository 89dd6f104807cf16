/**
 * MessagePack, compiled: the keyed-format generator (src/codecs/keyed/compiled.ts) with
 * MessagePack's writer, which pre-encodes the keys, map headers and constants. Short ASCII strings
 * in the two short forms (fixstr, str 8) are read by the generated code; all others by the reader.
 * The records mode (`msgpackRecords`) is a format of its own to the generator: its emitter writes
 * integers 64–127 differently, so its constants differ, and objects are records.
 */
import { type CompiledFormat, keyedFormat } from '../keyed/compiled.js';
import { MsgpackEmitter } from './encode/emitter.js';
import { shapesOf } from './encode/record-shapes.js';
import { RecordsEmitter } from './encode/records-emitter.js';

const shortStrings = { fixFrom: 0xa0, fixTo: 0xc0, oneByteHead: 0xd9 };

/** The MessagePack format as the generator takes it. */
export const msgpackCompiled: CompiledFormat = keyedFormat(() => new MsgpackEmitter(), shortStrings);

/** MessagePack with msgpackr's records (encode/records-emitter.ts), as the generator takes it. */
export const msgpackRecordsCompiled: CompiledFormat = keyedFormat(
  () => new RecordsEmitter(),
  shortStrings,
  shapesOf,
);
