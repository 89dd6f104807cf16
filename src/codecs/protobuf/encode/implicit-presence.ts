/**
 * proto3's implicit presence, one rule for both writers of the format: a field without presence is
 * left out at its type's default, by the binary writer (encode/message.ts) and by the ProtoJSON
 * printer (encode/protojson.ts) alike, so both forms of one value carry the same fields.
 */
import {
  BOOL,
  BYTES,
  DOUBLE,
  ENUM,
  FLOAT,
  INT32,
  INT64,
  SFIXED32,
  SFIXED64,
  SINT32,
  SINT64,
  type Slot,
  STRING,
  UFIXED32,
  UFIXED64,
  UINT32,
  UINT64,
} from '../layout.js';

/**
 * Whether proto3 leaves the value out of a field without presence. Wrong types are never default.
 * A float is default only when its bits are all zero (-0.0 is written, as C++ does); an integer's
 * -0 is the integer 0.
 */
export function isDefault(slot: Slot, value: unknown): boolean {
  switch (slot.type) {
    case BOOL:
      return value === false;
    case SINT32:
    case UINT32:
    case INT32:
    case SFIXED32:
    case UFIXED32:
      return value === 0;
    case SINT64:
    case UINT64:
    case INT64:
    case SFIXED64:
    case UFIXED64:
      return slot.asNumber ? value === 0 : value === 0n;
    case FLOAT:
      return typeof value === 'number' && Object.is(Math.fround(value), 0);
    case DOUBLE:
      return Object.is(value, 0);
    case STRING:
      return value === '';
    case BYTES:
      return value instanceof Uint8Array && value.length === 0;
    case ENUM:
      return value === (slot.members as readonly string[])[0];
    default:
      return false;
  }
}
