/**
 * A corpus of real .proto files: every one PyPI's googleapis-common-protos ships (google/type,
 * google/rpc, google/api...; installed by .ci/run into its venv, not copied here), read from the
 * venv's site-packages with /usr/include for the well-known types (whose own files
 * from-proto-peers.test.ts covers). Each file imports, or is refused for a reason listed below. For
 * each message Python protobuf finds in the file: random values encoded by wirekit (compiled and
 * interpreted) are the bytes the package's own generated classes (`google.type.money_pb2`...)
 * write with deterministic serialization, wirekit reads those bytes back, and `protoc --decode`
 * reads wirekit's with no field unknown. For each top-level message, toProto of the imported
 * schema compiles with protoc to the original's descriptors, or is refused for a listed reason.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { schemaFromProtoFile } from '../../../src/codecs/protobuf/from-proto-file.js';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { toProto } from '../../../src/schema/export/index.js';
import type { ObjectSchema, Schema } from '../../../src/schema/types.js';
import { arbitraryOf } from '../../support/proto-arbitrary.js';
import { compareEach, compileProto, type Equivalence } from '../../support/proto-equivalence.js';
import { has, venvPython, withTempDir } from '../../support/tools.js';

const include = '/usr/include';

/** Files the importer refuses, and why: none since Struct, Value and ListValue import as json. */
const refusedFiles: Readonly<Record<string, RegExp>> = {};

/** Top-level messages toProto refuses, and why. */
const refusedExports: Readonly<Record<string, RegExp>> = {
  // Operation holds a google.rpc.Status: two packages, which one file cannot declare.
  'google.longrunning.Operation': /types use google\.longrunning .* and google\.rpc \(google\.rpc\.Status\)/,
  'google.longrunning.ListOperationsResponse': /and google\.rpc \(google\.rpc\.Status\)/,
};

/** The package's .proto files, its site-packages folder, and each file's messages by Python. */
const listScript = `
import importlib, importlib.metadata, json
dist = importlib.metadata.distribution('googleapis-common-protos')
files = sorted(str(f) for f in dist.files if str(f).endswith('.proto'))
def walk(descriptor):
    if descriptor.GetOptions().map_entry:
        return []
    return [descriptor.full_name] + [n for nested in descriptor.nested_types for n in walk(nested)]
out = {'site': str(dist.locate_file('')), 'files': []}
for path in files:
    # The module's own descriptor: operations_proto.proto's was compiled as operations.proto.
    file = importlib.import_module(path[:-len('.proto')].replace('/', '.') + '_pb2').DESCRIPTOR
    top = list(file.message_types_by_name.values())
    out['files'].append({'path': path, 'top': [m.full_name for m in top],
                         'messages': [n for m in top for n in walk(m)]})
print(json.dumps(out))
`;

/** Python parses each value with the generated class, checks it, and writes it back deterministically. */
const bytesScript = `
import importlib, json, sys
from google.protobuf import descriptor_pool, message_factory
out = []
for case in json.load(sys.stdin):
    importlib.import_module(case['module'])
    cls = message_factory.GetMessageClass(descriptor_pool.Default().FindMessageTypeByName(case['type']))
    results = []
    for h in case['values']:
        m = cls()
        m.ParseFromString(bytes.fromhex(h))
        known = cls(); known.CopyFrom(m); known.DiscardUnknownFields()
        results.append([m.IsInitialized(), known.SerializeToString(deterministic=True).hex()])
    out.append(results)
print(json.dumps(out))
`;

interface ListedFile {
  readonly path: string;
  readonly top: readonly string[];
  readonly messages: readonly string[];
}

/**
 * The venv's protobuf runs on upb, whose deterministic serialization writes a string map key before
 * the keys it is a prefix of ("ab" before "a", "" last: its sorter negates memcmp and the encoder
 * writes backwards; protocolbuffers/protobuf#26621). protoc's C++ runtime, Debian's Python protobuf
 * (C++) and protobuf's pure-Python implementation order keys by their bytes, as wirekit does; the
 * pure-Python one is the reference here.
 */
const pureProtobuf = { ...process.env, PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION: 'python' };

function python(script: string, input = ''): unknown {
  const run = spawnSync(venvPython, ['-c', script], {
    input,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    env: pureProtobuf,
  });
  if (run.status !== 0) throw new Error(`python: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');

describe.skipIf(!has('protoc') || !has('python:google.protobuf') || !has('venv:google.type.money_pb2'))(
  'googleapis-common-protos: every .proto imports or is refused for a listed reason',
  () => {
    let site = '';
    let files: readonly ListedFile[] = [];
    beforeAll(() => {
      const listed = python(listScript) as { site: string; files: ListedFile[] };
      site = listed.site;
      files = listed.files;
    });

    test('the package ships the files the test expects (google/type, google/rpc, google/api...)', () => {
      const paths = files.map((file) => file.path);
      expect(paths.length).toBeGreaterThan(50);
      for (const expected of [
        'google/type/money.proto',
        'google/rpc/status.proto',
        'google/api/http.proto',
      ]) {
        expect(paths).toContain(expected);
      }
      for (const listed of Object.keys(refusedFiles)) expect(paths).toContain(listed);
    });

    test('each file imports, or is refused as listed; every message Python finds is a wirekit object', () => {
      const outcomes: Record<string, string> = {};
      for (const file of files) {
        try {
          const { types } = schemaFromProtoFile(join(site, file.path), { includePaths: [site, include] });
          const missing = file.messages.filter((name) => types.get(name)?.kind !== 'object');
          outcomes[file.path] = missing.length === 0 ? 'imported' : `missing ${missing.join(', ')}`;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          outcomes[file.path] = refusedFiles[file.path]?.test(reason) ? 'refused as listed' : reason;
        }
      }
      const expected = Object.fromEntries(
        files.map((file) => [file.path, file.path in refusedFiles ? 'refused as listed' : 'imported']),
      );
      expect(outcomes).toEqual(expected);
    });

    test('every message: wirekit writes the generated classes’ bytes and reads them; protoc decodes them', () => {
      const cases: {
        module: string;
        type: string;
        values: string[];
        path: string;
        schema: ObjectSchema;
        decoded: unknown[];
      }[] = [];
      let seed = 320;
      for (const file of files.filter((item) => !(item.path in refusedFiles))) {
        const { types } = schemaFromProtoFile(join(site, file.path), { includePaths: [site, include] });
        for (const name of file.messages) {
          const schema = types.get(name) as ObjectSchema;
          const values = fc.sample(arbitraryOf(schema, 0), { numRuns: 8, seed: seed++ });
          const compiled = createProtobufCodec({ schema, compile: true });
          const interpreted = createProtobufCodec({ schema, compile: false });
          const written = values.map((value) => {
            const bytes = compiled.encode(value);
            expect(hex(interpreted.encode(value)), name).toBe(hex(bytes));
            return hex(bytes);
          });
          const module = `${file.path.slice(0, -'.proto'.length).replaceAll('/', '.')}_pb2`;
          cases.push({ module, type: name, values: written, path: file.path, schema, decoded: values });
        }
      }
      // 141 messages (nested ones included) in the 63 files that import (googleapis-common-protos 1.76.0).
      expect(cases.length).toBe(141);
      const payload = cases.map(({ module, type, values }) => ({ module, type, values }));
      const answers = python(bytesScript, JSON.stringify(payload)) as [boolean, string][][];
      cases.forEach((item, i) => {
        item.values.forEach((written, j) => {
          const answer = answers[i]?.[j];
          expect({ type: item.type, value: j, answer }).toEqual({
            type: item.type,
            value: j,
            answer: [true, written],
          });
        });
      });
      // Python's bytes read by wirekit, both codecs, give the values back.
      for (const item of cases) {
        const { schema } = item;
        const compiled = createProtobufCodec({ schema, compile: true });
        const interpreted = createProtobufCodec({ schema, compile: false });
        const answered = answers[cases.indexOf(item)] ?? [];
        answered.forEach(([, written], j) => {
          const bytes = Buffer.from(written, 'hex');
          expect(compiled.decode(bytes), item.type).toEqual(item.decoded[j]);
          expect(interpreted.decode(bytes), item.type).toEqual(item.decoded[j]);
        });
        // protoc's own reader: every field known, nothing left as a bare number.
        const first = item.values.reduce(
          (longest, value) => (value.length > longest.length ? value : longest),
          '',
        );
        const decoded = spawnSync(
          'protoc',
          [`-I${site}`, `-I${include}`, `--decode=${item.type}`, item.path],
          {
            input: Buffer.from(first, 'hex'),
            encoding: 'utf8',
          },
        );
        expect(decoded.stderr, item.type).toBe('');
        expect(decoded.stdout, item.type).not.toMatch(/^\s*\d+:/m);
      }
    });

    test('toProto of each top-level message compiles to the original descriptors, or is refused as listed', () => {
      withTempDir((dir) => {
        const pairs: [string, string, string][] = [];
        const names: string[] = [];
        const outcomes: Record<string, string> = {};
        for (const file of files.filter((item) => !(item.path in refusedFiles))) {
          const { types } = schemaFromProtoFile(join(site, file.path), { includePaths: [site, include] });
          const original = compileProto(dir, [site, include], file.path);
          for (const name of file.top) {
            let printed: string;
            try {
              printed = toProto(types.get(name) as Schema);
            } catch (error) {
              const reason = error instanceof Error ? error.message : String(error);
              outcomes[name] = refusedExports[name]?.test(reason) ? 'refused as listed' : reason;
              continue;
            }
            const folder = join(dir, name);
            mkdirSync(folder);
            writeFileSync(join(folder, 'printed.proto'), printed);
            pairs.push([original, compileProto(folder, [folder, include], 'printed.proto'), 'printed.proto']);
            names.push(name);
          }
        }
        const results: Equivalence[] = compareEach(pairs);
        results.forEach((result, i) => {
          const name = names[i] as string;
          outcomes[name] =
            result.differences.length === 0 && result.compared > 0 ? 'equivalent' : JSON.stringify(result);
        });
        const expected = Object.fromEntries(
          Object.keys(outcomes).map((name) => [
            name,
            name in refusedExports ? 'refused as listed' : 'equivalent',
          ]),
        );
        expect(outcomes).toEqual(expected);
        // 115 top-level messages, of which 2 are refused.
        expect(names.length).toBe(113);
        for (const name of Object.keys(refusedExports)) expect(outcomes[name]).toBe('refused as listed');
      });
    });
  },
);
