/**
 * Comment lines for the `.proto` and `.fbs` exporters: the schema's docs, and what the target
 * format has no place for (aliases, defaults, how a kind is represented), so a reader of the
 * generated file still learns it.
 */
import type { FieldDef, NamedTypeInfo, Schema, TimePrecision } from '../types.js';
import { unwrapPresence } from './plan.js';

/** `text` as comment lines, one per line of text. */
function commentLines(prefix: string, indent: string, text: string | undefined): string[] {
  if (text === undefined) return [];
  return text.split(/\r?\n/).map((line) => `${indent}${prefix} ${line}`.trimEnd());
}

/** Aliases, the default and the doc of a field or named type; the doc last, next to its element. */
export function notes(
  docPrefix: string,
  indent: string,
  item: Pick<NamedTypeInfo, 'doc' | 'aliases'> & Pick<FieldDef, 'default'>,
): string[] {
  const lines: string[] = [];
  if (item.aliases !== undefined && item.aliases.length > 0) {
    lines.push(`${indent}// aliases: ${item.aliases.join(', ')}`);
  }
  if (item.default !== undefined) lines.push(`${indent}// default: ${valueText(item.default)}`);
  return [...lines, ...commentLines(docPrefix, indent, item.doc)];
}

/** A value as one line of JSON; bigints as digits, bytes as a list of numbers. */
export function valueText(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return item.toString();
    if (item instanceof Uint8Array) return Array.from(item);
    if (item instanceof Map) return Object.fromEntries(item);
    return item;
  });
  return text ?? String(value);
}

const units: Record<TimePrecision, string> = {
  s: 'seconds',
  ms: 'milliseconds',
  us: 'microseconds',
  ns: 'nanoseconds',
};

/**
 * How a kind that the format has no type for is carried, looking through presence, arrays and map
 * values: decimals and JSON as text, and (when `timestampUnits`) timestamps as integer counts.
 */
export function representationNote(schema: Schema, timestampUnits: boolean): string | undefined {
  const { inner } = unwrapPresence(schema);
  switch (inner.kind) {
    case 'array':
      return representationNote(inner.items, timestampUnits);
    case 'map':
      return representationNote(inner.values, timestampUnits);
    case 'decimal': {
      const size =
        inner.precision === undefined
          ? ''
          : `(${inner.precision}${inner.scale === undefined ? '' : `,${inner.scale}`})`;
      return `decimal${size} as canonical decimal text`;
    }
    case 'json':
      return 'JSON text';
    case 'timestamp':
      return timestampUnits ? `${units[inner.precision]} since the Unix epoch` : undefined;
    default:
      return undefined;
  }
}
