/**
 * Two things protoc writes into a field's descriptor as text, read back as the `.proto` text would
 * have said them: the JSON name it derives from the field's name (written in the AST only where the
 * file chose another), and `default_value`, the text of a proto2 default (`-5`, `inf`, `true`, a
 * string as is, bytes with C escapes, an enum value's name).
 */
import { type ProtoConstant, type ProtoTypeAst, stringConstant } from '../../schema/proto/index.js';

/** protoc's JSON name of a field: each `_` dropped and the letter after it upper-cased. */
export function defaultJsonName(name: string): string {
  let json = '';
  let upper = false;
  for (const char of name) {
    if (char === '_') upper = true;
    else {
      json += upper ? char.toUpperCase() : char;
      upper = false;
    }
  }
  return json;
}

const integerText = /^-?(0|[1-9][0-9]*)$/;
const integerScalars = new Set([
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
]);

/** The constant a `[default = ...]` would have been written as; undefined when the text is not one. */
export function defaultValueConstant(text: string, type: ProtoTypeAst): ProtoConstant | undefined {
  if (type.kind === 'named') {
    return /^[A-Za-z_][A-Za-z0-9_]*$/.test(text)
      ? { kind: 'identifier', value: text, negative: false }
      : undefined;
  }
  if (type.kind !== 'scalar') return undefined;
  const { scalar } = type;
  if (integerScalars.has(scalar))
    return integerText.test(text) ? { kind: 'integer', value: text } : undefined;
  switch (scalar) {
    case 'float':
    case 'double': {
      if (text === 'inf' || text === '-inf' || text === 'nan') {
        return { kind: 'identifier', value: text.replace('-', ''), negative: text.startsWith('-') };
      }
      if (integerText.test(text)) return { kind: 'integer', value: text };
      const value = Number(text);
      return text.trim() !== '' && Number.isFinite(value) ? { kind: 'float', value } : undefined;
    }
    case 'bool':
      return text === 'true' || text === 'false'
        ? { kind: 'identifier', value: text, negative: false }
        : undefined;
    case 'string':
      return { kind: 'string', value: text };
    default: {
      const bytes = unescapeBytes(text);
      return bytes === undefined ? undefined : stringConstant(bytes);
    }
  }
}

const simpleEscapes: Readonly<Record<string, string>> = {
  n: '\n',
  r: '\r',
  t: '\t',
  '"': '"',
  "'": "'",
  '\\': '\\',
  '?': '?',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};

/** protoc's C escaping of a bytes default undone: one code unit (0-255) per byte, as the AST holds bytes. */
function unescapeBytes(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) return undefined;
    const simple = simpleEscapes[next];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4))?.[0];
    const hex = next === 'x' ? /^[0-9A-Fa-f]{1,2}/.exec(text.slice(i + 2, i + 4))?.[0] : undefined;
    const digits = octal ?? hex;
    if (digits === undefined) return undefined;
    const code = Number.parseInt(digits, octal === undefined ? 16 : 8);
    if (code > 255) return undefined;
    out += String.fromCharCode(code);
    i += digits.length + (octal === undefined ? 1 : 0);
  }
  return out;
}
