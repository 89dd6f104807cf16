"""What protoc made of .proto files, as JSON: reads a FileDescriptorSet (protoc --descriptor_set_out)
with Debian's python3-protobuf and prints, per file, the declarations the differential test compares
with wirekit's .proto reader: names, numbers, labels, types, oneofs, nested types, reserved and
extension ranges, enums, services and extensions."""

import json
import sys

from google.protobuf import descriptor_pb2


def field(f):
    return {
        "name": f.name,
        "number": f.number,
        "label": f.label,
        "type": f.type,
        "type_name": f.type_name,
        "oneof_index": f.oneof_index if f.HasField("oneof_index") else None,
        "proto3_optional": f.proto3_optional,
        "extendee": f.extendee,
    }


def enum(e):
    return {
        "name": e.name,
        "values": [[v.name, v.number] for v in e.value],
        "reserved_ranges": [[r.start, r.end] for r in e.reserved_range],
        "reserved_names": list(e.reserved_name),
    }


def message(m):
    return {
        "name": m.name,
        "map_entry": m.options.map_entry,
        "fields": [field(f) for f in m.field],
        "oneofs": [o.name for o in m.oneof_decl],
        "nested": [message(n) for n in m.nested_type],
        "enums": [enum(e) for e in m.enum_type],
        "extensions": [field(f) for f in m.extension],
        "reserved_ranges": [[r.start, r.end] for r in m.reserved_range],
        "reserved_names": list(m.reserved_name),
        "extension_ranges": [[r.start, r.end] for r in m.extension_range],
    }


def service(s):
    return {
        "name": s.name,
        "methods": [
            {
                "name": m.name,
                "input": m.input_type,
                "output": m.output_type,
                "client_streaming": m.client_streaming,
                "server_streaming": m.server_streaming,
            }
            for m in s.method
        ],
    }


def main():
    # One or more FileDescriptorSet files; their files by name.
    out = {}
    for path in sys.argv[1:]:
        files = descriptor_pb2.FileDescriptorSet()
        with open(path, "rb") as source:
            files.ParseFromString(source.read())
        for f in files.file:
            describe(out, f)
    json.dump(out, sys.stdout)


def describe(out, f):
    out[f.name] = {
        "package": f.package,
        "syntax": f.syntax or "proto2",
        "dependencies": list(f.dependency),
        "messages": [message(m) for m in f.message_type],
        "enums": [enum(e) for e in f.enum_type],
        "services": [service(s) for s in f.service],
        "extensions": [field(x) for x in f.extension],
    }


main()
