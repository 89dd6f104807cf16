"""Writes an Avro container file with fastavro: a record with logical types of every kind the Avro
import maps, fixed, an enum with a default, nullable fields and nested collections. The path to
write is the one argument. Used by test/codecs/avro/container-schema.test.ts."""
import datetime
import decimal
import sys
import uuid

import fastavro

schema = {"type": "record", "name": "Reading", "namespace": "lab.sensors", "fields": [
    {"name": "id", "type": {"type": "string", "logicalType": "uuid"}},
    {"name": "price", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
    {"name": "day", "type": {"type": "int", "logicalType": "date"}},
    {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    {"name": "wall", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
    {"name": "hash", "type": {"type": "fixed", "name": "MD5", "size": 4}},
    {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B"], "default": "A"}},
    {"name": "note", "type": ["null", "string"], "default": None},
    {"name": "tags", "type": {"type": "map", "values": {"type": "array", "items": "long"}}},
    {"name": "prev", "type": ["null", "MD5"]},
]}
first = {
    "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
    "price": decimal.Decimal("-1234.56"),
    "day": datetime.date(2024, 2, 29),
    "at": datetime.datetime(2024, 2, 29, 12, 0, 0, 123000, tzinfo=datetime.timezone.utc),
    "wall": datetime.datetime(2024, 2, 29, 12, 0, 0, 654321),
    "hash": b"\x00\x01\xfe\xff",
    "kind": "B",
    "note": "h\u00e9llo",
    "tags": {"a": [1, -2, 2**40]},
    "prev": None,
}
second = dict(first, note=None, prev=b"abcd", tags={})
with open(sys.argv[1], "wb") as out:
    fastavro.writer(out, schema, [first, second], codec="deflate")
