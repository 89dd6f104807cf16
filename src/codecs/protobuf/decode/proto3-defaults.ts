/**
 * proto3's default of each value that is not a message: what a field without presence reads as
 * when it is not there, in the binary reader (message.ts) and the ProtoJSON reader (protojson.ts)
 * alike. Each reader adds its own part: the binary one charges its budget and builds empty message
 * bodies from an empty input, the ProtoJSON one from an empty object; both hold the default to the
 * value's rule where that can refuse it.
 */
import {
  BOOL,
  BYTES,
  DECIMAL,
  ENUM,
  INT64,
  JSON_MESSAGE,
  JSON_TEXT,
  LITERAL,
  SFIXED64,
  SINT64,
  type Slot,
  STRING,
  TIMESTAMP,
  UFIXED64,
  UINT64,
} from '../layout.js';

/**
 * The default of a slot that is not a message (a Struct or ListValue is one here: `{}` or `[]`). The
 * 32-bit integers and the floats fall to the last case: 0.
 */
export function scalarDefault(slot: Slot): unknown {
  switch (slot.type) {
    case BOOL:
      return false;
    case SINT64:
    case UINT64:
    case INT64:
    case SFIXED64:
    case UFIXED64:
      return slot.asNumber ? 0 : 0n;
    case STRING:
      return '';
    case DECIMAL:
      return '0';
    case JSON_TEXT:
      return null;
    case BYTES:
      return new Uint8Array(0);
    case ENUM:
      return (slot.members as readonly string[])[0];
    case LITERAL:
      return slot.literal;
    case TIMESTAMP:
      return new Date(0);
    case JSON_MESSAGE:
      // An absent Value is null (the json kind's default); an absent Struct or ListValue is empty.
      return slot.jsonForm === 'value' ? null : slot.jsonForm === 'struct' ? {} : [];
    default:
      return 0;
  }
}
