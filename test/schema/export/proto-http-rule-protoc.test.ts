/**
 * toProto of REST mappings, judged by protoc with googleapis' files (from the venv's
 * googleapis-common-protos) on the include path: the file compiles, and Python's descriptor pool
 * reads each method's `google.api.http` extension back as the rule t.unary was given, additional
 * bindings and response_body included. Without the option (httpRules: false, what descriptorFiles
 * asks for) the file imports nothing of googleapis'. wirekit's own .proto importer reads the rules
 * back (and leaves out one it cannot serve), and toTypeScript writes them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { schemaFromProto } from '../../../src/codecs/protobuf/index.js';
import { toTypeScript } from '../../../src/schema/export/index.js';
import { toProto } from '../../../src/schema/export/proto.js';
import type { MethodSchema } from '../../../src/schema/index.js';
import { OrderApi } from '../../fixtures/gateway-service.js';
import { protocIncludeDir } from '../../support/protoc.js';
import { has, venvPython, withTempDir } from '../../support/tools.js';

/** The folder holding google/api/annotations.proto: googleapis-common-protos's site-packages. */
function googleapisInclude(): string {
  const script =
    "import importlib.metadata as m; print(m.distribution('googleapis-common-protos').locate_file(''))";
  return execFileSync(venvPython, ['-c', script], { encoding: 'utf8' }).trim();
}

/** The importer's reader of googleapis' files (and protoc's descriptor.proto), as protoc's -I finds them. */
function googleapisImports(): (path: string) => string | undefined {
  const folders = [googleapisInclude(), protocIncludeDir];
  return (path) => {
    const folder = folders.find((candidate) => existsSync(join(candidate, path)));
    return folder === undefined ? undefined : readFileSync(join(folder, path), 'utf8');
  };
}

/** Each method's http option as Python's json_format writes it (camelCase names), by method name. */
const readRules = `
import json, sys
from google.protobuf import descriptor_pb2, json_format
# Imported before the set is parsed, so MethodOptions reads the extension as a field.
from google.api import annotations_pb2
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
for f in fds.file:
    if f.name.startswith('google/'):
        continue
    for service in f.service:
        out = {}
        for method in service.method:
            if method.options.HasExtension(annotations_pb2.http):
                out[method.name] = json_format.MessageToDict(method.options.Extensions[annotations_pb2.http])
        print(json.dumps(out))
`;

describe.skipIf(!has('protoc') || !has('venv:google.api.annotations_pb2'))(
  'toProto writes google.api.http: protoc and Python read it back',
  () => {
    test('every rule, with its additional bindings and response_body', () => {
      const text = toProto(OrderApi);
      expect(text).toContain('import "google/api/annotations.proto";');
      const rules = withTempDir((dir) => {
        writeFileSync(join(dir, 'api.proto'), text);
        const set = join(dir, 'api.pb');
        execFileSync(
          'protoc',
          [
            `-I${dir}`,
            `-I${googleapisInclude()}`,
            `-I${protocIncludeDir}`,
            '--include_imports',
            `--descriptor_set_out=${set}`,
            'api.proto',
          ],
          { stdio: 'pipe' },
        );
        const run = spawnSync(venvPython, ['-c', readRules, set], { encoding: 'utf8' });
        if (run.status !== 0) throw new Error(run.stderr);
        return JSON.parse(run.stdout);
      });
      expect(rules).toEqual({
        GetOrder: { get: '/v1/orders/{id}', additionalBindings: [{ get: '/v1/orders/{id}:fetch' }] },
        CreateOrder: { post: '/v1/shops/{shop}/orders', body: '*' },
        UpdateOrder: { patch: '/v1/orders/{order.id}', body: 'order' },
        GetNote: { get: '/v1/orders/{id}/note', responseBody: 'note' },
        GetShelf: { get: '/v1/{name=shelves/*/books/**}' },
      });
    });

    test('httpRules: false leaves the options and the import out', () => {
      const text = toProto(OrderApi, { httpRules: false });
      expect(text).not.toContain('google.api');
      expect(text).not.toContain('googleapis');
    });

    test('the .proto importer reads the rules back (googleapis on its import path), and --to ts writes them', () => {
      const imports = googleapisImports();
      const [imported] = schemaFromProto(toProto(OrderApi), { imports }).services;
      const rules = (methods: Readonly<Record<string, MethodSchema>>) =>
        Object.fromEntries(Object.entries(methods).map(([name, method]) => [name, method.http]));
      expect(rules(imported?.schema.methods ?? {})).toEqual(rules(OrderApi.methods));
      expect(toTypeScript([OrderApi])).toContain(
        "http: { get: '/v1/orders/{id}', additionalBindings: [{ get: '/v1/orders/{id}:fetch' }] }",
      );
    });

    test('a rule wirekit cannot serve is left out of the import, not a failed import', () => {
      const text = [
        'syntax = "proto3";',
        'package x.v1;',
        'import "google/api/annotations.proto";',
        'message Req { string name = 1; }',
        'service S {',
        '  rpc Custom(Req) returns (Req) { option (google.api.http) = { custom { kind: "HEAD" path: "/v1/{name}" } }; }',
        '  rpc Missing(Req) returns (Req) { option (google.api.http) = { get: "/v1/{nope}" }; }',
        '  rpc Fine(Req) returns (Req) { option (google.api.http) = { get: "/v1/{name}" }; }',
        '}',
      ].join('\n');
      const imports = googleapisImports();
      const methods = schemaFromProto(text, { imports }).services[0]?.schema.methods ?? {};
      expect(Object.entries(methods).map(([name, method]) => [name, method.http])).toEqual([
        ['Custom', undefined],
        ['Missing', undefined],
        ['Fine', { get: '/v1/{name}' }],
      ]);
    });
  },
);
