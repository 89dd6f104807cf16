/**
 * The declared inspection surface of Protocol Buffers: what `wirekit inspect` needs to show a
 * message it has no wirekit schema for, field by field as the wire has it. Tools outside the
 * codecs import this entry (or index.ts), never the format's other files.
 */
export {
  FIXED32,
  FIXED64,
  LEN,
  readPackedVarints,
  readWireFields,
  START_GROUP,
  VARINT,
  type WireField,
} from './decode/wire-fields.js';
