"""fastavro's side of the Avro import's container tests (test/codecs/avro/container-schema.test.ts).

  write-full PATH       a container of a record with logical types, fixed, an enum with a default,
                        nullable fields and nested collections (deflate)
  write-portable PATH   the same without the fixed fields, with time and local-timestamp types
  check-portable PATH   reads PATH's values by the portable schema; prints "same" when they are the
                        ones write-portable writes, else what it read

The portable schema leaves fixed out: wirekit imports fixed as bytes and writes bytes, which Avro
does not resolve to a reader's fixed."""
import datetime
import decimal
import io
import sys
import uuid

import fastavro

portable_fields = [
    {"name": "id", "type": {"type": "string", "logicalType": "uuid"}},
    {"name": "price", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
    {"name": "day", "type": {"type": "int", "logicalType": "date"}},
    {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    {"name": "wall", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
    {"name": "wallMillis", "type": {"type": "long", "logicalType": "local-timestamp-millis"}},
    {"name": "clock", "type": {"type": "int", "logicalType": "time-millis"}},
    {"name": "clockMicros", "type": {"type": "long", "logicalType": "time-micros"}},
    {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B"], "default": "A"}},
    {"name": "note", "type": ["null", "string"], "default": None},
    {"name": "tags", "type": {"type": "map", "values": {"type": "array", "items": "long"}}},
]
fixed_fields = [
    {"name": "hash", "type": {"type": "fixed", "name": "MD5", "size": 4}},
    {"name": "prev", "type": ["null", "MD5"]},
]


def schema(fields):
    return {"type": "record", "name": "Reading", "namespace": "lab.sensors", "fields": fields}


first = {
    "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
    "price": decimal.Decimal("-1234.56"),
    "day": datetime.date(2024, 2, 29),
    "at": datetime.datetime(2024, 2, 29, 12, 0, 0, 123000, tzinfo=datetime.timezone.utc),
    "wall": datetime.datetime(2024, 2, 29, 12, 0, 0, 654321),
    "wallMillis": datetime.datetime(1969, 12, 31, 23, 59, 59, 999000),
    "clock": datetime.time(23, 59, 59, 999000),
    "clockMicros": datetime.time(0, 0, 0, 1),
    "kind": "B",
    "note": "h\u00e9llo",
    "tags": {"a": [1, -2, 2**40]},
}
portable = [first, dict(first, note=None, tags={})]
full = [dict(first, hash=b"\x00\x01\xfe\xff", prev=None), dict(first, hash=b"\x00\x01\xfe\xff", prev=b"abcd", note=None, tags={})]

mode, path = sys.argv[1], sys.argv[2]
if mode == "write-full":
    with open(path, "wb") as out:
        fastavro.writer(out, schema(portable_fields + fixed_fields), full, codec="deflate")
elif mode == "write-portable":
    with open(path, "wb") as out:
        fastavro.writer(out, schema(portable_fields), portable)
elif mode == "check-portable":
    # fastavro applies the writer's logical types, and wirekit's file declares none for date, time,
    # uuid and local timestamps (they import as their integers and strings). So each value is
    # written again in the layout of the file's own schema, and those bytes are read as the original
    # schema declares them: the same bytes must give the values write-portable wrote.
    with open(path, "rb") as stream:
        container = fastavro.reader(stream)
        layout = fastavro.parse_schema(container.writer_schema)
        values = list(container)
    original = fastavro.parse_schema(schema(portable_fields))
    read = []
    for value in values:
        buffer = io.BytesIO()
        fastavro.schemaless_writer(buffer, layout, value)
        buffer.seek(0)
        read.append(fastavro.schemaless_reader(buffer, original, None))
    print("same" if read == portable else repr(read))
else:
    sys.exit(f"unknown mode {mode}")
