/**
 * The names ProtoJSON writes: a field's JSON name, derived from its proto name as protoc derives
 * `json_name` (each `_` dropped and the letter after it upper-cased; nothing else changes), and
 * the well-known message a plan's message stands for, whose JSON form is not an object of fields.
 */

/** protoc's `ToJsonName`: `foo_bar` → `fooBar`, `foo_bar_2` → `fooBar2`, `FooBar` stays. */
export function jsonNameOf(protoName: string): string {
  let out = '';
  let upper = false;
  for (const char of protoName) {
    if (char === '_') {
      upper = true;
    } else {
      out += upper ? char.toUpperCase() : char;
      upper = false;
    }
  }
  return out;
}

/** The well-known messages whose JSON is not an object of their fields. */
export type WellKnown = 'Duration' | 'FieldMask' | 'Empty' | 'Any' | 'wrapper';

const wrappers = new Set([
  'DoubleValue',
  'FloatValue',
  'Int64Value',
  'UInt64Value',
  'Int32Value',
  'UInt32Value',
  'BoolValue',
  'StringValue',
  'BytesValue',
]);

/** Which well-known message `name` (a plan's message name, `.google.protobuf.X` or `google.protobuf.X`) is. */
export function wellKnownOf(name: string): WellKnown | undefined {
  const match = /^\.?google\.protobuf\.(\w+)$/.exec(name);
  if (match === null) return undefined;
  const short = match[1] as string;
  if (wrappers.has(short)) return 'wrapper';
  return short === 'Duration' || short === 'FieldMask' || short === 'Empty' || short === 'Any'
    ? short
    : undefined;
}
