/**
 * protoc and Python protobuf as the Protocol Buffers tests call them: the include folder Debian's
 * libprotobuf-dev installs with the well-known types, a `.proto` text compiled to a descriptor set,
 * and Python's deterministic serialization of text-format values, the bytes wirekit must equal.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { python, withTempDir } from './tools.js';

/** Where libprotobuf-dev puts google/protobuf/*.proto. */
export const protocIncludeDir = '/usr/include';

/** The well-known types and descriptor.proto, by import path, as protoc's include folder holds them. */
export const wellKnownProtoPaths: readonly string[] = [
  'any',
  'api',
  'descriptor',
  'duration',
  'empty',
  'field_mask',
  'source_context',
  'struct',
  'timestamp',
  'type',
  'wrappers',
].map((name) => `google/protobuf/${name}.proto`);

export interface DescriptorSetOptions {
  /** protoc's --include_imports: the set holds every file the text imports too. */
  readonly includeImports?: boolean;
  /** protoc's --include_source_info: lines and columns of every declaration. */
  readonly sourceInfo?: boolean;
}

/**
 * Writes `text` as `dir/name` and compiles it with protoc (`-I dir -I /usr/include`) to a
 * descriptor set beside it, whose path it returns; a file protoc refuses throws with its message.
 */
export function protocDescriptorSet(
  dir: string,
  name: string,
  text: string,
  options: DescriptorSetOptions = {},
): string {
  writeFileSync(join(dir, name), text);
  const set = join(dir, `${name}.pb`);
  execFileSync(
    'protoc',
    [
      `-I${dir}`,
      `-I${protocIncludeDir}`,
      ...(options.includeImports ? ['--include_imports'] : []),
      ...(options.sourceInfo ? ['--include_source_info'] : []),
      `--descriptor_set_out=${set}`,
      name,
    ],
    { stdio: 'pipe' },
  );
  return set;
}

/** The text-format spelling of bytes (every byte an octal escape), for values given to Python. */
export function textFormatBytes(bytes: Uint8Array): string {
  return `"${[...bytes].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('')}"`;
}

/**
 * `encode` serializes text-format values deterministically; `concat` parses two serialized
 * messages one after the other (as a reader of a concatenation does: a later oneof member replaces
 * an earlier one) and serializes the result.
 */
const pythonScript = `
import json, sys
from google.protobuf import descriptor_pb2, message_factory, text_format
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
cls = message_factory.GetMessages(fds.file)[sys.argv[2]]
out = []
for item in json.load(sys.stdin):
    if sys.argv[3] == 'encode':
        out.append(text_format.Parse(item, cls()).SerializeToString(deterministic=True).hex())
    else:
        m = cls()
        m.ParseFromString(bytes.fromhex(item[0]) + bytes.fromhex(item[1]))
        out.append(m.SerializeToString(deterministic=True).hex())
print(json.dumps(out))
`;

/**
 * Python protobuf's bytes, in hex, for each item as a `message` of the `.proto` text `proto`:
 * `encode` takes text-format values, `concat` pairs of messages in hex (see the script above).
 */
export function pythonProtoBytes(
  proto: string,
  message: string,
  items: readonly unknown[],
  mode: 'encode' | 'concat' = 'encode',
): string[] {
  return withTempDir((dir) => {
    const set = protocDescriptorSet(dir, 'file.proto', proto, { includeImports: true });
    const result = spawnSync(python, ['-c', pythonScript, set, message, mode], {
      input: JSON.stringify(items),
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as string[];
  });
}

/** A file of a descriptor set as protoc compiled it: its package, messages, imports and services. */
export interface DescribedProtoFile {
  readonly package: string;
  /** The top-level messages' names, in the file's order. */
  readonly messages: readonly string[];
  readonly dependencies: readonly string[];
  /** Each ServiceDescriptorProto as protobuf's JSON mapping writes it (fields at their default left out). */
  readonly services: readonly unknown[];
}

const describeFileScript = `
import json, sys
from google.protobuf import descriptor_pb2, json_format
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
f = [f for f in fds.file if f.name == sys.argv[2]][0]
print(json.dumps({'package': f.package, 'messages': [m.name for m in f.message_type],
  'dependencies': list(f.dependency), 'services': [json_format.MessageToDict(s) for s in f.service]}))
`;

/** The file `name` of a descriptor set, as Python's descriptor_pb2 reads it (DescribedProtoFile). */
export function describeProtoFile(set: string, name: string): DescribedProtoFile {
  const result = spawnSync(python, ['-c', describeFileScript, set, name], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as DescribedProtoFile;
}
