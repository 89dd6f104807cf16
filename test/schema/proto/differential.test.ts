/**
 * wirekit's .proto reader against two independent ones, on one corpus: hand-written files that use
 * every part of the language, the real well-known types and descriptor.proto from protoc's include
 * folder, the .proto files wirekit exports for its datasets, and generated random files.
 *
 * - protoc compiles the corpus to descriptors, which Debian's python3-protobuf prints as JSON: every
 *   name, number, label, resolved type, oneof, nested type, range, enum value, service and extension
 *   must be what wirekit's reader made of the same text (descriptor-shape.ts).
 * - The registry's model built from wirekit's AST must equal the one built from protobufjs's parser
 *   (protobufjs-model.ts), for the files protobufjs reads as protoc does.
 * - Every file protoc refuses (test/fixtures/proto-corpus.ts, one rule each) is refused by wirekit's reader.
 * - The well-known types wirekit carries declare what protoc's own files declare.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  type ProtoFile,
  parseProtoFile,
} from '../../../src/boundaries/events/compatibility/protobuf-schema.js';
import { defaultSchemaLimits } from '../../../src/boundaries/events/compatibility/schema-text.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { datasets } from '../../../src/lab/datasets/index.js';
import { toProto } from '../../../src/schema/export/index.js';
import {
  type LinkedProto,
  linkProto,
  type ProtoFileAst,
  parseProto,
  wellKnownProtoFiles,
} from '../../../src/schema/proto/index.js';
import { type CorpusFile, generatedFiles, invalidFiles, validFiles } from '../../fixtures/proto-corpus.js';
import { protocDescriptorSet, protocIncludeDir, wellKnownProtoPaths } from '../../support/protoc.js';
import { has, python, withTempDir } from '../../support/tools.js';
import { descriptorShape } from './descriptor-shape.js';
import { type PlainEnum, type PlainFile, type PlainMessage, protobufjsModel } from './protobufjs-model.js';

const available = has('protoc') && has('python:google.protobuf.descriptor_pb2');

/** Files by import path, read by wirekit's reader from protoc's include folder. */
const included = new Map<string, ProtoFileAst>();
function includedFile(path: string): ProtoFileAst | undefined {
  let file = included.get(path);
  if (file === undefined && wellKnownProtoPaths.includes(path)) {
    file = parseProto(readFileSync(join(protocIncludeDir, path), 'utf8'));
    included.set(path, file);
  }
  return file;
}

function link(text: string): LinkedProto {
  return linkProto(parseProto(text), includedFile);
}

const datasetFiles: CorpusFile[] = Object.values(datasets).map((dataset) => ({
  name: `the ${dataset.name} dataset's export`,
  text: toProto(dataset.schema),
}));
const generated = generatedFiles(300, 29);

describe.skipIf(!available)('protoc agrees', () => {
  const corpus: CorpusFile[] = [...validFiles, ...datasetFiles, ...generated];

  test('on every declaration of every valid file', { timeout: 120_000 }, () => {
    // One protoc run per file: the files of the corpus define the same names in the same packages.
    const theirs = withTempDir((dir) => {
      const sets = corpus.map((file, i) => {
        return protocDescriptorSet(dir, `c${i}.proto`, file.text);
      });
      const script = new URL('../../support/peers/descriptor_json.py', import.meta.url).pathname;
      return JSON.parse(
        execFileSync(python, [script, ...sets], { maxBuffer: 256 * 1024 * 1024 }).toString(),
      ) as Record<string, unknown>;
    });
    const disagreements = corpus.flatMap((file, i) => {
      const ours = normalized(descriptorShape(link(file.text)));
      const protoc = normalized(theirs[`c${i}.proto`]);
      return JSON.stringify(ours) === JSON.stringify(protoc) ? [] : [{ file: file.name, ours, protoc }];
    });
    expect(disagreements.slice(0, 2)).toEqual([]);
  });

  test("on protoc's own well-known types and descriptor.proto", () => {
    const theirs = withTempDir((dir) => {
      const set = join(dir, 'set.pb');
      execFileSync(
        'protoc',
        [`-I${protocIncludeDir}`, `--descriptor_set_out=${set}`, ...wellKnownProtoPaths],
        {
          stdio: 'pipe',
        },
      );
      const script = new URL('../../support/peers/descriptor_json.py', import.meta.url).pathname;
      return JSON.parse(execFileSync(python, [script, set]).toString()) as Record<string, unknown>;
    });
    for (const path of wellKnownProtoPaths) {
      const linked = linkProto(includedFile(path) as ProtoFileAst, includedFile);
      expect(normalized(descriptorShape(linked)), path).toEqual(normalized(theirs[path]));
    }
  });

  test('the well-known types wirekit carries declare what protoc ships', () => {
    const carried = new Map<string, ProtoFileAst>();
    for (const [path, text] of wellKnownProtoFiles) carried.set(path, parseProto(text));
    for (const path of wellKnownProtoFiles.keys()) {
      const ours = linkProto(carried.get(path) as ProtoFileAst, (p) => carried.get(p));
      const real = linkProto(includedFile(path) as ProtoFileAst, includedFile);
      expect(normalized(descriptorShape(ours)), path).toEqual(normalized(descriptorShape(real)));
    }
    expect([...wellKnownProtoFiles.keys()].sort()).toEqual(
      wellKnownProtoPaths.filter((p) => !p.includes('descriptor')),
    );
  });

  test('every file protoc refuses, the reader refuses', { timeout: 60_000 }, () => {
    const refusedByProtoc = withTempDir((dir) =>
      invalidFiles.map((file, i) => {
        writeFileSync(join(dir, `bad${i}.proto`), file.text);
        try {
          execFileSync(
            'protoc',
            [`-I${dir}`, `-I${protocIncludeDir}`, '--descriptor_set_out=/dev/null', `bad${i}.proto`],
            {
              stdio: 'pipe',
            },
          );
          return false;
        } catch {
          return true;
        }
      }),
    );
    expect(invalidFiles.filter((_file, i) => !refusedByProtoc[i]).map((file) => file.name)).toEqual([]);
    const accepted = invalidFiles.filter((file) => {
      try {
        link(file.text);
        return true;
      } catch (error) {
        if (!isWirekitError(error, 'WK_SCHEMA_INVALID')) throw error;
        expect(error.offset === undefined || error.offset <= file.text.length).toBe(true);
        return false;
      }
    });
    expect(accepted.map((file) => file.name)).toEqual([]);
  });
});

describe('protobufjs agrees on the registry model', () => {
  const corpus = [...validFiles, ...datasetFiles, ...generated].filter(
    (file) => file.protobufjs !== false && file.text.trim() !== '',
  );

  test.each(corpus.slice(0, 8).map((file) => [file.name, file] as const))('%s', (_name, file) => {
    expect(plain(parseProtoFile(file.text, defaultSchemaLimits))).toEqual(protobufjsModel(file.text));
  });

  test(`${corpus.length - 8} more, generated and exported`, () => {
    for (const file of corpus.slice(8)) {
      expect(plain(parseProtoFile(file.text, defaultSchemaLimits)), file.text).toEqual(
        protobufjsModel(file.text),
      );
    }
  });
});

/** Descriptors as JSON with synthetic oneofs marked alike on both sides (their indexes follow the real ones). */
function normalized(shape: unknown): unknown {
  return JSON.parse(JSON.stringify(shape), (key, value) => {
    if (key === 'fields' && Array.isArray(value)) {
      return value.map((field: { proto3_optional?: boolean; oneof_index?: unknown }) =>
        field.proto3_optional === true ? { ...field, oneof_index: 'synthetic' } : field,
      );
    }
    return value;
  });
}

/** The registry's model as plain data, the shape protobufjs-model.ts gives. */
function plain(file: ProtoFile): PlainFile {
  const types: (PlainMessage | PlainEnum)[] = [];
  for (const type of file.types.values()) {
    if (!type.fullName.startsWith('google.protobuf.') || file.package === 'google.protobuf') {
      if ('values' in type) {
        types.push({
          fullName: type.fullName,
          values: [...type.values],
          reservedNumbers: type.reserved.numbers.map(([a, b]) => [a, b] as const),
          reservedNames: [...type.reserved.names].sort(),
        });
      } else {
        types.push({
          fullName: type.fullName,
          localName: type.localName,
          group: type.group,
          fields: type.fields.map((field) => ({
            name: field.name,
            number: field.number,
            label: field.label,
            oneof: field.oneof ?? null,
            type: typeText(field.type),
          })),
          oneofs: [...type.oneofs],
          messages: type.messages.map((m) => m.fullName),
          enums: type.enums.map((e) => e.fullName),
          reservedNumbers: type.reserved.numbers.map(([a, b]) => [a, b] as const),
          reservedNames: [...type.reserved.names].sort(),
        });
      }
    }
  }
  return {
    syntax: file.syntax,
    package: file.package,
    imports: [...file.imports].sort(),
    messages: file.messages.map((m) => m.fullName),
    enums: file.enums.map((e) => e.fullName),
    types: types.sort((a, b) => (a.fullName < b.fullName ? -1 : 1)),
  };
}

function typeText(type: ProtoFile['messages'][number]['fields'][number]['type']): string {
  switch (type.kind) {
    case 'scalar':
      return type.scalar;
    case 'map':
      return `map<${typeText(type.key)}, ${typeText(type.value)}>`;
    default:
      return `${type.kind} ${type.type.fullName}`;
  }
}
