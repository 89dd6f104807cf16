/**
 * fileDescriptorOfProto and protoOfFileDescriptor against protoc, over the .proto reader's corpus
 * (every construct of the language) and generated files:
 *
 * - fileDescriptorOfProto(text) is byte for byte the FileDescriptorProto protoc writes for the file
 *   (without source info), or differs only where the module comment says (custom and file options);
 * - protoOfFileDescriptor(protoc's bytes) is a text whose descriptor is protoc's again: what the
 *   schema registry stores for a schema Confluent's ProtobufSerializer registers, and serves back.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fileDescriptorSet, type MessageDescriptor } from '../../../src/codecs/protobuf/descriptor-schema.js';
import {
  createProtobufCodec,
  fileDescriptorOfProto,
  protoOfFileDescriptor,
} from '../../../src/codecs/protobuf/index.js';
import { SchemaImportError } from '../../../src/errors/index.js';
import { t } from '../../../src/schema/index.js';
import { type CorpusFile, generatedFiles, validFiles } from '../../fixtures/proto-corpus.js';
import { has, withTempDir } from '../../support/tools.js';

/** The last file of a set protoc writes (the one it compiled), as its own bytes. */
function protocDescriptor(text: string, imports: Record<string, string> = {}): Uint8Array {
  return withTempDir((dir) => {
    for (const [path, content] of Object.entries(imports)) {
      execFileSync('mkdir', ['-p', join(dir, path, '..')]);
      writeFileSync(join(dir, path), content);
    }
    writeFileSync(join(dir, 'main.proto'), text);
    const out = join(dir, 'main.pb');
    execFileSync('protoc', [`-I${dir}`, '-I/usr/include', `--descriptor_set_out=${out}`, 'main.proto'], {
      stdio: 'pipe',
    });
    const set = setCodec.decode(new Uint8Array(readFileSync(out)));
    return set.file.at(-1) as Uint8Array;
  });
}

/** A FileDescriptorSet read only as far as its files' bytes. */
const setCodec = createProtobufCodec<{ file: Uint8Array[] }>({
  schema: t.object('FileDescriptorSet', { file: t.field(t.array(t.bytes()), { id: 1 }) }),
});

const fileCodec = createProtobufCodec<{ file: MessageDescriptor[] }>({ schema: fileDescriptorSet });

/**
 * What a file declares, with each message's nested types sorted by name: the printed text writes a
 * message's fields before its nested messages, so a map's entry or a group's message may move
 * among the nested types (a .proto text cannot say more; see protoOfFileDescriptor).
 */
function declarations(file: Uint8Array): unknown {
  const sorted = (message: MessageDescriptor): MessageDescriptor => ({
    ...message,
    nestedType: [...message.nestedType]
      .map(sorted)
      .sort((a, b) => ((a.name ?? '') < (b.name ?? '') ? -1 : 1)),
  });
  const set = fileCodec.decode(Uint8Array.of(0x0a, ...lengthOf(file.length), ...file));
  const [decoded] = set.file as unknown as { messageType: MessageDescriptor[] }[];
  return { ...decoded, messageType: decoded?.messageType.map(sorted) };
}

function lengthOf(length: number): number[] {
  const bytes: number[] = [];
  for (let rest = length; ; rest = Math.floor(rest / 128)) {
    bytes.push(rest >= 128 ? (rest % 128) | 0x80 : rest);
    if (rest < 128) return bytes;
  }
}

/** Options the descriptor leaves out (file options, custom options): files holding them compare by shape elsewhere. */
const withOptionsOutsideTheDescriptor = (file: CorpusFile) =>
  /option\s+\(|^\s*option\s+(java_|go_|optimize_for|cc_|objc_|csharp_|swift_|php_|ruby_)/m.test(file.text) ||
  /\[\s*\(|,\s*\(/.test(file.text) ||
  /^\s*option\s+(deprecated|map_entry|message_set_wire_format)/m.test(file.text) ||
  /extensions [^;]*\[/.test(file.text);

const corpus = [...validFiles, ...generatedFiles(40, 33)].filter(
  (file) => !withOptionsOutsideTheDescriptor(file),
);

describe.skipIf(!has('protoc'))('FileDescriptorProto to and from .proto text, against protoc', () => {
  test.each(corpus.map((file) => [file.name, file] as const))('%s', (_name, file) => {
    const theirs = protocDescriptor(file.text);
    const mine = fileDescriptorOfProto(file.text, { name: 'main.proto' });
    expect(Buffer.from(mine).toString('hex')).toBe(Buffer.from(theirs).toString('hex'));
    const printed = protoOfFileDescriptor(theirs);
    const again = fileDescriptorOfProto(printed, { name: 'main.proto' });
    expect(Buffer.from(again).toString('hex')).toBe(Buffer.from(protocDescriptor(printed)).toString('hex'));
    expect(declarations(again)).toEqual(declarations(theirs));
  });

  test('a file importing another file and a well-known type; nested types in declaration order', () => {
    const money =
      'syntax = "proto3";\npackage shop.common;\nmessage Money { string currency = 1; int64 units = 2; }\n';
    const text = `syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";
import "shop/money.proto";
message Order {
  message Line {
    shop.common.Money price = 1;
    map<string, int32> tags = 2;
    message Note { string text = 1; }
    repeated Note notes = 3;
  }
  repeated Line lines = 1;
  google.protobuf.Timestamp placed = 2;
  optional string coupon = 3;
  oneof pay { string card = 4; string iban = 5; }
}
`;
    const theirs = protocDescriptor(text, { 'shop/money.proto': money });
    const imports = (path: string) => (path === 'shop/money.proto' ? money : undefined);
    const mine = fileDescriptorOfProto(text, { name: 'main.proto', imports });
    expect(Buffer.from(mine).toString('hex')).toBe(Buffer.from(theirs).toString('hex'));
    const printed = protoOfFileDescriptor(theirs);
    expect(printed).toContain('import "shop/money.proto";');
    expect(printed).toContain('.shop.common.Money price = 1;');
    const again = fileDescriptorOfProto(printed, { name: 'main.proto', imports });
    expect(Buffer.from(again).toString('hex')).toBe(Buffer.from(theirs).toString('hex'));
  });
});

describe('protoOfFileDescriptor refuses what is not a FileDescriptorProto', () => {
  test('bytes that do not decode', () => {
    expect(() => protoOfFileDescriptor(new Uint8Array([0x0a, 0xff]))).toThrow(SchemaImportError);
  });

  test('a descriptor without a name', () => {
    expect(() => protoOfFileDescriptor(new Uint8Array([0x12, 0x01, 0x61]))).toThrow(/no name/);
  });

  test('an import the text cannot resolve is named when the descriptor is made', () => {
    const text = 'syntax = "proto3";\nimport "other.proto";\nmessage A { Other o = 1; }\n';
    expect(() => fileDescriptorOfProto(text, { name: 'a.proto' })).toThrow(/other\.proto|Other/);
  });
});
