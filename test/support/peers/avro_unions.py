"""Python's Avro implementations as peers for unions (test/codecs/avro/either-peers.test.ts).

  write LIB   reads {"schema", "values"} as JSON on stdin; writes each value as a single datum and all
              of them as an object container file (deflate); prints {"datums": [hex], "container": hex}
  read LIB    reads {"schema", "datums": [hex], "container": hex} on stdin; prints
              {"datums": [value], "container": [value]}, each read by that schema

LIB is "fastavro" (PyPI) or "avro" (Apache Avro's own Python package, Debian's python3-avro). Values
are JSON; {"$float": n} stands for the float n, so that a whole number can be written as a double
(JSON alone would make it an int, which both libraries put in an "int" or "long" branch)."""
import io
import json
import sys


def from_json(value):
    if isinstance(value, dict):
        if set(value) == {"$float"}:
            return float(value["$float"])
        return {key: from_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_json(item) for item in value]
    return value


class FastAvro:
    def __init__(self, schema):
        import fastavro

        self.lib = fastavro
        self.schema = fastavro.parse_schema(schema)

    def datum(self, value):
        out = io.BytesIO()
        self.lib.schemaless_writer(out, self.schema, value)
        return out.getvalue()

    def container(self, values):
        out = io.BytesIO()
        self.lib.writer(out, self.schema, values, codec="deflate")
        return out.getvalue()

    def read_datum(self, data):
        return self.lib.schemaless_reader(io.BytesIO(data), self.schema)

    def read_container(self, data):
        return list(self.lib.reader(io.BytesIO(data)))


class ApacheAvro:
    def __init__(self, schema):
        import avro.datafile
        import avro.io
        import avro.schema

        self.datafile = avro.datafile
        self.io = avro.io
        self.schema = avro.schema.parse(json.dumps(schema))

    def datum(self, value):
        out = io.BytesIO()
        self.io.DatumWriter(self.schema).write(value, self.io.BinaryEncoder(out))
        return out.getvalue()

    def container(self, values):
        out = io.BytesIO()
        writer = self.datafile.DataFileWriter(out, self.io.DatumWriter(), self.schema, codec="deflate")
        for value in values:
            writer.append(value)
        writer.flush()
        data = out.getvalue()
        writer.close()
        return data

    def read_datum(self, data):
        return self.io.DatumReader(self.schema).read(self.io.BinaryDecoder(io.BytesIO(data)))

    def read_container(self, data):
        return list(self.datafile.DataFileReader(io.BytesIO(data), self.io.DatumReader()))


mode, lib = sys.argv[1], sys.argv[2]
request = json.load(sys.stdin)
peer = (FastAvro if lib == "fastavro" else ApacheAvro)(request["schema"])
if mode == "write":
    values = from_json(request["values"])
    print(json.dumps({"datums": [peer.datum(v).hex() for v in values], "container": peer.container(values).hex()}))
elif mode == "read":
    datums = [peer.read_datum(bytes.fromhex(d)) for d in request["datums"]]
    container = peer.read_container(bytes.fromhex(request["container"]))
    print(json.dumps({"datums": datums, "container": container}))
else:
    sys.exit(f"unknown mode {mode}")
