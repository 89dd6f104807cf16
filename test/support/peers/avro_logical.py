"""Python's Avro implementations as peers for logical types and fixed (test/codecs/avro/logical-types-peers.test.ts).

  schemas LIB  reads {"pairs": [[original, exported], ...]}; prints, per pair, what LIB makes of each
               schema: fastavro its parsing canonical form and parse_schema's result, Apache Avro its
               canonical form and to_json()
  write LIB    reads {"schema", "values": [value]}; prints {"datums": [hex]}, each value written as a
               single datum
  read LIB     reads {"schema", "datums": [hex], "values": [value]}; prints {"equal": [bool], "read":
               [repr]}: whether LIB reads each datum as the value given

LIB is "fastavro" (PyPI) or "avro" (Apache Avro's own Python package, Debian's python3-avro). Values
are JSON, where an object with one "$" key stands for a Python value: {"$bytes": hex}, {"$date":
"2022-01-01"}, {"$time": "01:02:03.004000"}, {"$datetime": ISO with offset}, {"$naive": ISO without
one}, {"$uuid": text}, {"$decimal": text}, {"$int": digits} (beyond a double's exact integers). Bare
numbers are the integers Avro stores."""
import datetime
import decimal
import io
import json
import sys
import uuid
import warnings

warnings.simplefilter("ignore")

TAGS = {
    "$int": int,
    "$bytes": bytes.fromhex,
    "$date": datetime.date.fromisoformat,
    "$time": datetime.time.fromisoformat,
    "$datetime": datetime.datetime.fromisoformat,
    "$naive": datetime.datetime.fromisoformat,
    "$uuid": uuid.UUID,
    "$decimal": decimal.Decimal,
}


def from_json(value):
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)) in TAGS:
            tag, text = next(iter(value.items()))
            return TAGS[tag](text)
        return {key: from_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_json(item) for item in value]
    return value


def public(parsed):
    """parse_schema's result without fastavro's own bookkeeping keys."""
    if isinstance(parsed, dict):
        return {k: public(v) for k, v in parsed.items() if not k.startswith("__")}
    if isinstance(parsed, list):
        return [public(item) for item in parsed]
    return parsed


class FastAvro:
    def __init__(self):
        import fastavro
        from fastavro.schema import to_parsing_canonical_form

        self.lib = fastavro
        self.canonical = to_parsing_canonical_form

    def describe(self, schema):
        parsed = self.lib.parse_schema(schema)
        return {"canonical": self.canonical(parsed), "parsed": public(parsed)}

    def write(self, schema, value):
        out = io.BytesIO()
        self.lib.schemaless_writer(out, self.lib.parse_schema(schema), value)
        return out.getvalue()

    def read(self, schema, data):
        return self.lib.schemaless_reader(io.BytesIO(data), self.lib.parse_schema(schema))


class ApacheAvro:
    def __init__(self):
        import avro.io
        import avro.schema

        self.io = avro.io
        self.schema = avro.schema

    def parse(self, schema):
        return self.schema.parse(json.dumps(schema))

    def describe(self, schema):
        parsed = self.parse(schema)
        return {"canonical": parsed.canonical_form, "parsed": parsed.to_json()}

    def write(self, schema, value):
        out = io.BytesIO()
        self.io.DatumWriter(self.parse(schema)).write(value, self.io.BinaryEncoder(out))
        return out.getvalue()

    def read(self, schema, data):
        return self.io.DatumReader(self.parse(schema)).read(self.io.BinaryDecoder(io.BytesIO(data)))


def main():
    mode, name = sys.argv[1], sys.argv[2]
    lib = FastAvro() if name == "fastavro" else ApacheAvro()
    request = json.load(sys.stdin)
    if mode == "schemas":
        out = [[lib.describe(schema) for schema in pair] for pair in request["pairs"]]
    elif mode == "write":
        values = from_json(request["values"])
        out = {"datums": [lib.write(request["schema"], value).hex() for value in values]}
    else:
        read = [lib.read(request["schema"], bytes.fromhex(datum)) for datum in request["datums"]]
        expected = from_json(request["values"])
        out = {"equal": [a == b for a, b in zip(read, expected)], "read": [repr(value) for value in read]}
    json.dump(out, sys.stdout)


main()
