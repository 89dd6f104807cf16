/**
 * A parsed .proto file (ast.ts) written back as `.proto` text that parses to the same AST, positions
 * aside. The schema registry needs it for a schema registered as a serialized FileDescriptorProto
 * (what Confluent's ProtobufSerializer sends): Confluent's server keeps such a schema as text and
 * serves the text to readers that do not ask for the descriptor, and so does wirekit's.
 *
 * Names are written as the AST holds them (a descriptor's are full names with a leading dot, which
 * the reader resolves from the root); strings are escaped so that any code unit round-trips.
 */
import type {
  ProtoConstant,
  ProtoEnumAst,
  ProtoExtendAst,
  ProtoExtensionRange,
  ProtoFieldAst,
  ProtoFileAst,
  ProtoMessageAst,
  ProtoOption,
  ProtoRange,
  ProtoReservedAst,
  ProtoServiceAst,
  ProtoTypeAst,
} from './ast.js';

/** The largest field number, which `to max` stands for. */
const maxFieldNumber = 536_870_911;

/** The file as `.proto` text. */
export function printProto(file: ProtoFileAst): string {
  const out = new Lines();
  out.line(`syntax = "${file.syntax}";`);
  if (file.package !== '') out.line(`package ${file.package};`);
  for (const item of file.imports) {
    out.line(`import ${item.modifier === 'none' ? '' : `${item.modifier} `}${quoted(item.path)};`);
  }
  for (const option of file.options) out.line(`option ${optionText(option)};`);
  for (const message of file.messages) printMessage(out, message);
  for (const enumeration of file.enums) printEnum(out, enumeration);
  for (const extend of file.extends) printExtend(out, extend);
  for (const service of file.services) printService(out, service);
  return out.text();
}

class Lines {
  private readonly lines: string[] = [];
  private depth = 0;
  line(text: string): void {
    this.lines.push(`${'  '.repeat(this.depth)}${text}`);
  }
  open(text: string): void {
    this.line(`${text} {`);
    this.depth++;
  }
  close(): void {
    this.depth--;
    this.line('}');
  }
  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

function printMessage(out: Lines, message: ProtoMessageAst): void {
  out.open(`message ${message.name}`);
  for (const option of message.options) out.line(`option ${optionText(option)};`);
  // Fields in declaration order; a oneof's members are written inside it, where its first one stood.
  const written = new Set<number>();
  for (const field of message.fields) {
    if (field.oneof === undefined) {
      printField(out, field);
      continue;
    }
    if (written.has(field.oneof)) continue;
    written.add(field.oneof);
    const oneof = message.oneofs[field.oneof];
    out.open(`oneof ${oneof?.name ?? `oneof_${field.oneof}`}`);
    for (const option of oneof?.options ?? []) out.line(`option ${optionText(option)};`);
    for (const member of message.fields) if (member.oneof === field.oneof) printField(out, member);
    out.close();
  }
  // A oneof without members cannot be written (the reader refuses an empty one), and protoc never makes one.
  for (const nested of message.messages) printMessage(out, nested);
  for (const enumeration of message.enums) printEnum(out, enumeration);
  for (const extend of message.extends) printExtend(out, extend);
  if (message.extensionRanges.length > 0) {
    for (const range of message.extensionRanges) out.line(`extensions ${extensionRange(range)};`);
  }
  printReserved(out, message.reserved);
  out.close();
}

function printField(out: Lines, field: ProtoFieldAst): void {
  const label = field.label === undefined ? '' : `${field.label} `;
  const options = field.options.length === 0 ? '' : ` [${field.options.map(optionText).join(', ')}]`;
  if (field.type.kind === 'group') {
    const group = field.type.message;
    out.open(`${label}group ${group.name} = ${field.number}${options}`);
    printBody(out, group);
    out.close();
    return;
  }
  out.line(`${label}${typeText(field.type)} ${field.name} = ${field.number}${options};`);
}

/** A group's body: what a message holds, inside the field's braces. */
function printBody(out: Lines, message: ProtoMessageAst): void {
  const inner = new Lines();
  printMessage(inner, message);
  const lines = inner.text().trimEnd().split('\n').slice(1, -1);
  for (const line of lines) out.line(line.slice(2));
}

function typeText(type: Exclude<ProtoTypeAst, { kind: 'group' }>): string {
  if (type.kind === 'scalar') return type.scalar;
  if (type.kind === 'named') return type.name;
  const value = type.value.kind === 'scalar' ? type.value.scalar : type.value.name;
  return `map<${type.key}, ${value}>`;
}

function printEnum(out: Lines, enumeration: ProtoEnumAst): void {
  out.open(`enum ${enumeration.name}`);
  for (const option of enumeration.options) out.line(`option ${optionText(option)};`);
  for (const value of enumeration.values) {
    const options = value.options.length === 0 ? '' : ` [${value.options.map(optionText).join(', ')}]`;
    out.line(`${value.name} = ${value.number}${options};`);
  }
  printReserved(out, enumeration.reserved);
  out.close();
}

function printExtend(out: Lines, extend: ProtoExtendAst): void {
  out.open(`extend ${extend.extendee}`);
  for (const field of extend.fields) printField(out, field);
  out.close();
}

function printService(out: Lines, service: ProtoServiceAst): void {
  out.open(`service ${service.name}`);
  for (const option of service.options) out.line(`option ${optionText(option)};`);
  for (const method of service.methods) {
    const input = `${method.inputStream ? 'stream ' : ''}${method.input}`;
    const output = `${method.outputStream ? 'stream ' : ''}${method.output}`;
    const head = `rpc ${method.name}(${input}) returns (${output})`;
    if (method.options.length === 0) out.line(`${head};`);
    else {
      out.open(head);
      for (const option of method.options) out.line(`option ${optionText(option)};`);
      out.close();
    }
  }
  out.close();
}

function printReserved(out: Lines, reserved: ProtoReservedAst): void {
  if (reserved.ranges.length > 0) out.line(`reserved ${reserved.ranges.map(rangeText).join(', ')};`);
  if (reserved.names.length > 0)
    out.line(`reserved ${reserved.names.map((item) => quoted(item.name)).join(', ')};`);
}

function rangeText(range: ProtoRange): string {
  if (range.toMax) return `${range.start} to max`;
  return range.start === range.end ? `${range.start}` : `${range.start} to ${range.end}`;
}

function extensionRange(range: ProtoExtensionRange): string {
  const text = range.toMax || range.end >= maxFieldNumber ? `${range.start} to max` : rangeText(range);
  return range.options.length === 0 ? text : `${text} [${range.options.map(optionText).join(', ')}]`;
}

function optionText(option: ProtoOption): string {
  const name = option.name.map((part) => (part.extension ? `(${part.name})` : part.name)).join('.');
  return `${name} = ${constantText(option.value)}`;
}

function constantText(value: ProtoConstant): string {
  switch (value.kind) {
    case 'identifier':
      return `${value.negative ? '-' : ''}${value.value}`;
    case 'integer':
      return value.value;
    case 'float':
      if (Number.isNaN(value.value)) return 'nan';
      return Number.isFinite(value.value) ? String(value.value) : value.value > 0 ? 'inf' : '-inf';
    case 'string':
      return quoted(value.value, value.octets);
    case 'aggregate':
      return `{ ${value.fields
        .map((field) => {
          const name = field.extension ? `[${field.name}]` : field.name;
          const item = field.value;
          const text =
            item.kind === 'list' ? `[${item.items.map(constantText).join(', ')}]` : constantText(item);
          return `${name}: ${text}`;
        })
        .join(' ')} }`;
  }
}

/**
 * A string literal of a text's UTF-8 (or of a constant's octets when it has them): printable
 * ASCII as is, every other byte an octal escape, which the tokenizer reads back as that byte.
 */
function quoted(text: string, octets?: string): string {
  let out = '"';
  for (const code of octets === undefined ? new TextEncoder().encode(text) : octetsOf(octets)) {
    const char = String.fromCharCode(code);
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) out += char;
    else out += `\\${code.toString(8).padStart(3, '0')}`;
  }
  return `${out}"`;
}

function* octetsOf(octets: string): Iterable<number> {
  for (let i = 0; i < octets.length; i++) yield octets.charCodeAt(i);
}
