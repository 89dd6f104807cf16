/**
 * Whether a `.proto` file toProto printed compiles, with protoc, to the descriptors of the file a
 * schema was imported from. Strict where the bytes or the generated code would differ: each field's
 * name, number, type, type name, label (proto2 `required` included), presence, effective packing,
 * `[default = …]` and oneof, and each enum's value names and numbers. Callers ask `has('protoc')` and
 * `has('python:google.protobuf')` first (tools.ts).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { python } from './tools.js';

/** Compiles `path` (found in `includes`) to a descriptor set with its imports; returns the set's path. */
export function compileProto(dir: string, includes: readonly string[], path: string): string {
  const out = join(dir, `${path.replaceAll('/', '_')}.pb`);
  const result = spawnSync(
    'protoc',
    [...includes.map((folder) => `-I${folder}`), '--include_imports', `--descriptor_set_out=${out}`, path],
    { encoding: 'utf8' },
  );
  if (result.status !== 0 || result.stderr !== '') throw new Error(`protoc ${path}: ${result.stderr}`);
  return out;
}

/**
 * Presence is compared as what it means: proto3 `optional`, a proto2 `optional`, a message field
 * or a oneof member has it, whichever syntax declares it (a synthetic oneof is no oneof).
 */
const compareScript = `
import json, sys
from google.protobuf import descriptor_pb2
def load(path, only=None):
    fds = descriptor_pb2.FileDescriptorSet()
    fds.ParseFromString(open(path, 'rb').read())
    messages, enums = {}, {}
    for f in fds.file:
        if only is not None and f.name != only:
            continue
        syntax = f.syntax or 'proto2'
        def walk(prefix, ms, es):
            for e in es:
                enums[prefix + e.name] = [[v.name, v.number] for v in e.value]
            for m in ms:
                messages[prefix + m.name] = [view(fd, m, syntax) for fd in m.field]
                walk(prefix + m.name + '.', m.nested_type, m.enum_type)
        walk('.' + f.package + '.' if f.package else '.', f.message_type, f.enum_type)
    return messages, enums
def view(fd, m, syntax):
    packable = fd.label == 3 and fd.type not in (9, 10, 11, 12)
    packed = packable and (fd.options.packed if fd.options.HasField('packed') else syntax == 'proto3')
    real_oneof = fd.HasField('oneof_index') and not fd.proto3_optional
    present = fd.label != 3 and (fd.type == 11 or real_oneof or fd.proto3_optional or syntax == 'proto2')
    return {'name': fd.name, 'number': fd.number, 'type': fd.type, 'label': fd.label,
            'type_name': fd.type_name, 'packed': packed, 'present': present,
            'default': fd.default_value if fd.HasField('default_value') else None,
            'oneof': m.oneof_decl[fd.oneof_index].name if real_oneof else None}
results = []
for original_path, printed_path, printed_file in json.load(sys.stdin):
    original = load(original_path)
    printed = load(printed_path, printed_file)
    out = {'compared': 0, 'differences': []}
    for kind in (0, 1):
        for name, item in printed[kind].items():
            out['compared'] += 1
            if original[kind].get(name) != item:
                out['differences'].append([name, original[kind].get(name), item])
    results.append(out)
print(json.dumps(results))
`;

export interface Equivalence {
  /** How many messages and enums of the printed file were compared. */
  readonly compared: number;
  /** [full name, the original's, the printed one's] for each that differs. */
  readonly differences: readonly unknown[];
}

/**
 * Compares each message and enum of `printedFile` (by its name in the set `printed`) with the
 * declaration of the same full name in the set `original`.
 */
export function compareDescriptors(original: string, printed: string, printedFile: string): Equivalence {
  return compareEach([[original, printed, printedFile]])[0] as Equivalence;
}

/** `compareDescriptors` for each [original, printed, printedFile], in one Python run. */
export function compareEach(cases: readonly (readonly [string, string, string])[]): Equivalence[] {
  const run = spawnSync(python, ['-c', compareScript], { input: JSON.stringify(cases), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`descriptor comparison failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Equivalence[];
}
