import { WirekitError } from '../errors/index.js';

/** Protocol Buffers' limits, the strictest of the tag-based formats. */
export const maxFieldNumber = 536_870_911;
const protobufReserved = { from: 19_000, to: 19_999 };

export interface FieldNumberInput {
  readonly name: string;
  readonly id: number | undefined;
}

/**
 * Gives each field its number. The rule keeps numbers stable as a schema is edited:
 * - a field with an explicit `id` keeps it and takes no place in the automatic count;
 * - the other fields are numbered 1, 2, 3, … in declaration order, skipping `reserved` numbers
 *   and Protocol Buffers' own 19000-19999.
 * So appending a field, or adding one anywhere with an explicit id, never renumbers another field;
 * to delete a field, reserve its number (the fields after it keep theirs). Any clash is an error,
 * never a silent renumbering: a wire number that changes corrupts every stored message.
 */
export function assignFieldNumbers(
  objectName: string,
  fields: readonly FieldNumberInput[],
  reserved: readonly number[] = [],
): number[] {
  const reservedSet = new Set(reserved);
  for (const number of reserved) checkRange(objectName, `reserved number ${number}`, number);

  const taken = new Map<number, string>();
  const claim = (number: number, fieldName: string): void => {
    checkRange(objectName, `field '${fieldName}'`, number);
    if (reservedSet.has(number)) {
      throw new WirekitError(
        'WK_SCHEMA_FIELD_ID',
        `${objectName}.${fieldName}: number ${number} is reserved (it belonged to a removed field).`,
      );
    }
    const owner = taken.get(number);
    if (owner !== undefined) {
      throw new WirekitError(
        'WK_SCHEMA_FIELD_ID',
        `${objectName}: fields '${owner}' and '${fieldName}' both have number ${number}; ` +
          'give one of them an explicit id that no other field uses.',
      );
    }
    taken.set(number, fieldName);
  };

  for (const field of fields) if (field.id !== undefined) claim(field.id, field.name);

  let next = 1;
  return fields.map((field) => {
    if (field.id !== undefined) return field.id;
    // Protocol Buffers' own range is skipped as reserved numbers are: a schema of more than
    // 18,999 automatic fields numbers its 19,000th 20000, where it could only fail before.
    while (reservedSet.has(next) || (next >= protobufReserved.from && next <= protobufReserved.to)) next++;
    claim(next, field.name);
    return next++;
  });
}

function checkRange(objectName: string, what: string, number: number): void {
  if (!Number.isInteger(number) || number < 1 || number > maxFieldNumber) {
    throw new WirekitError(
      'WK_SCHEMA_FIELD_ID',
      `${objectName}: ${what} must be an integer from 1 to ${maxFieldNumber}.`,
    );
  }
  if (number >= protobufReserved.from && number <= protobufReserved.to) {
    throw new WirekitError(
      'WK_SCHEMA_FIELD_ID',
      `${objectName}: ${what} is ${number}; Protocol Buffers reserves 19000-19999 for itself.`,
    );
  }
}
