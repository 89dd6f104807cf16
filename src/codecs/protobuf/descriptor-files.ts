/**
 * The files a server reflection service (grpc.reflection.v1 and v1alpha) answers with: serialized
 * google.protobuf.FileDescriptorProtos describing a server's services, looked up by file name
 * (FileByFilename) or by a fully-qualified symbol (FileContainingSymbol), each answer being the file
 * then every file it imports, transitively, so that a client such as grpcurl or Postman builds its
 * descriptor pool in one round trip, without a `.proto` file.
 *
 * Each given file is `toProto`'s text of services and types (or a `.proto` text) through
 * fileDescriptorOfProto, the same bytes protoc writes for it. The google/protobuf files they import
 * are made the same way from wirekit's own copies (schema/proto/well-known.ts), so a server needs
 * neither protoc nor its include folder; those copies leave out the files' language options
 * (java_package, go_package, ...), which describe no message and which no reflection client reads.
 */
import { WirekitError } from '../../errors/index.js';
import { type ProtoFileInput, type ProtoOptions, toProto } from '../../schema/export/proto.js';
import { wellKnownProtoFiles } from '../../schema/proto/index.js';
import type { Codec } from '../core/codec.js';
import { fileDescriptorOfProto } from './descriptor-of-proto.js';
import { type FileDescriptor, fileDescriptorSet, type MessageDescriptor } from './descriptor-schema.js';
import { createProtobufCodec } from './index.js';

/** A file's contents: services and named types as `toProto` takes them, or a `.proto` text. */
export type DescriptorFileSource = ProtoFileInput | string;

export interface DescriptorFiles {
  /** Every file by name: the given ones, then the well-known files they import. */
  readonly files: ReadonlyMap<string, Uint8Array>;
  /** The full names of the services the given files declare, in order (ListServices' answer). */
  readonly services: readonly string[];
  /** The named file then its imports, transitively, each once; undefined for a file not here. */
  fileByName(name: string): Uint8Array[] | undefined;
  /**
   * The file declaring `symbol` then its imports, as fileByName. A symbol is a fully-qualified
   * name without a leading dot: a service, a method (`pkg.Service.Method`), a message or enum
   * (nested ones too), a field, or an enum value (in its enum's scope, as protobuf scopes them).
   */
  fileContainingSymbol(symbol: string): Uint8Array[] | undefined;
  /** The name of the file declaring `symbol`; undefined when no file here declares it. */
  fileNameOfSymbol(symbol: string): string | undefined;
  /**
   * Whether `name` is a message declared here (nested ones and map entries too): the types a
   * reflection client may ask the extension numbers of, which are none (wirekit declares no
   * extensions), where another name is NOT_FOUND.
   */
  isMessage(name: string): boolean;
}

type SetCodec = Codec<{ file: FileDescriptor[] }>;
let setCodec: SetCodec | undefined;

/**
 * The descriptor files of `sources`, by the path each is known as (`orders/v1/orders.proto`):
 *
 *   const files = descriptorFiles({ 'orders/v1/orders.proto': OrderService });
 *   files.fileContainingSymbol('orders.v1.OrderService'); // [orders.proto, timestamp.proto]
 *
 * A `.proto` text may import another given file by its path. WK_SCHEMA_INVALID when a source does
 * not make a file (toProto's refusals, a text that does not parse or link), when a file imports one
 * that is neither given nor well-known, or when two files declare the same symbol.
 */
export function descriptorFiles(
  sources: Readonly<Record<string, DescriptorFileSource>>,
  options: ProtoOptions = {},
): DescriptorFiles {
  const texts = new Map<string, string>();
  for (const [name, source] of Object.entries(sources)) {
    // REST mappings left out: their option would import googleapis' files, which are not here.
    texts.set(name, typeof source === 'string' ? source : toProto(source, { httpRules: false, ...options }));
  }
  const files = new Map<string, Uint8Array>();
  const dependencies = new Map<string, readonly string[]>();
  const symbols = new Map<string, string>();
  const messages = new Set<string>();
  const services: string[] = [];
  const textOf = (path: string) => texts.get(path) ?? wellKnownProtoFiles.get(path);
  const add = (name: string, text: string, given: boolean): void => {
    const bytes = fileDescriptorOfProto(text, { name, imports: (path) => texts.get(path) });
    const decoded = decodeFile(bytes);
    files.set(name, bytes);
    dependencies.set(name, decoded.dependency);
    const declared = declaredSymbols(decoded);
    for (const message of declared.messages) messages.add(message);
    for (const symbol of declared.names) {
      const other = symbols.get(symbol);
      if (other !== undefined) {
        throw new WirekitError('WK_SCHEMA_INVALID', `${symbol} is declared by both ${other} and ${name}.`);
      }
      symbols.set(symbol, name);
    }
    if (given) services.push(...decoded.service.map((service) => qualified(decoded.package, service.name)));
  };
  for (const [name, text] of texts) add(name, text, true);
  // The well-known files the given ones import, and the ones those import (type.proto imports any.proto).
  const pending = [...texts.keys()];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    for (const dependency of dependencies.get(name) ?? []) {
      if (files.has(dependency)) continue;
      const text = textOf(dependency);
      if (text === undefined) {
        throw new WirekitError(
          'WK_SCHEMA_INVALID',
          `${name} imports ${dependency}, which is neither among the files given nor a google/protobuf well-known file.`,
        );
      }
      add(dependency, text, false);
      pending.push(dependency);
    }
  }

  const fileByName = (name: string): Uint8Array[] | undefined => {
    if (!files.has(name)) return undefined;
    const order: string[] = [];
    const visit = (file: string): void => {
      if (order.includes(file)) return;
      order.push(file);
      for (const dependency of dependencies.get(file) ?? []) visit(dependency);
    };
    visit(name);
    return order.map((file) => files.get(file) as Uint8Array);
  };
  const withoutDot = (symbol: string) => (symbol.startsWith('.') ? symbol.slice(1) : symbol);
  const fileNameOfSymbol = (symbol: string) => symbols.get(withoutDot(symbol));
  return {
    files,
    services,
    fileByName,
    fileNameOfSymbol,
    isMessage: (name) => messages.has(withoutDot(name)),
    fileContainingSymbol: (symbol) => {
      const name = fileNameOfSymbol(symbol);
      return name === undefined ? undefined : fileByName(name);
    },
  };
}

/** A serialized FileDescriptorProto read back, through a set of one file (field 1, length-delimited). */
function decodeFile(bytes: Uint8Array): FileDescriptor {
  setCodec ??= createProtobufCodec({ schema: fileDescriptorSet }) as SetCodec;
  const length: number[] = [];
  for (let rest = bytes.length; ; rest = Math.floor(rest / 128)) {
    length.push(rest >= 128 ? (rest % 128) | 0x80 : rest);
    if (rest < 128) break;
  }
  const set = new Uint8Array(1 + length.length + bytes.length);
  set.set([0x0a, ...length]);
  set.set(bytes, 1 + length.length);
  return setCodec.decode(set).file[0] as FileDescriptor;
}

function qualified(scope: string | undefined, name: string | undefined): string {
  return scope === undefined || scope === '' ? (name ?? '') : `${scope}.${name ?? ''}`;
}

/** Every full name a file declares, as a descriptor pool indexes them, and which are messages. */
function declaredSymbols(file: FileDescriptor): { names: string[]; messages: string[] } {
  const names: string[] = [];
  const messages: string[] = [];
  const enumsOf = (scope: string | undefined, enums: readonly FileDescriptor['enumType'][number][]) => {
    for (const enumeration of enums) {
      names.push(qualified(scope, enumeration.name));
      // An enum value is a sibling of its enum, not a member (C++ scoping).
      for (const value of enumeration.value) names.push(qualified(scope, value.name));
    }
  };
  const messageOf = (scope: string | undefined, message: MessageDescriptor) => {
    const name = qualified(scope, message.name);
    names.push(name);
    messages.push(name);
    for (const field of [...message.field, ...message.extension]) names.push(qualified(name, field.name));
    for (const oneof of message.oneofDecl) names.push(qualified(name, oneof.name));
    for (const nested of message.nestedType) messageOf(name, nested);
    enumsOf(name, message.enumType);
  };
  for (const message of file.messageType) messageOf(file.package, message);
  enumsOf(file.package, file.enumType);
  for (const extension of file.extension) names.push(qualified(file.package, extension.name));
  for (const service of file.service) {
    const name = qualified(file.package, service.name);
    names.push(name);
    for (const method of service.method) names.push(qualified(name, method.name));
  }
  return { names, messages };
}
