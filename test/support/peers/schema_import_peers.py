"""The other languages' side of the user's path (test/package/schema-import.test.ts): the value
each runtime builds from the same schema file wirekit imported, written and checked by that
language's own library.

  protobuf write PATH   Python protobuf (order_pb2, compiled by protoc from order.proto; its folder
                        is the working directory) writes the order, deterministically serialized
  protobuf check PATH   reads PATH as an Order; prints "same" when it is that order, else what it read
  avro write PATH       fastavro writes the user of user.avsc (in the working directory), schemaless
  avro check PATH       reads PATH by user.avsc; prints "same" when it is that user, else what it read
"""
import datetime
import io
import json
import os
import sys

# order_pb2 and user.avsc are in the working directory, not beside this script.
sys.path.insert(0, os.getcwd())


def order():
    import order_pb2

    value = order_pb2.Order(
        id=9007199254740993,
        items=[
            order_pb2.Order.Item(sku="A-1", quantity=2, price_cents=-1250),
            order_pb2.Order.Item(sku="B-2", quantity=1, price_cents=99),
        ],
        status=order_pb2.Order.STATUS_PAID,
        labels={"channel": 3, "gift": -1},
        note="leave at the door",
        codes=[-7, 0, 2147483647],
    )
    value.created_at.FromJsonString("2026-12-06T23:00:00.123Z")
    return value


def user():
    return {
        "id": 9007199254740993,
        "email": "ada@example.com",
        "nickname": None,
        "role": "MEMBER",
        "tags": ["early", "ops"],
        "scores": {"math": 1.5, "art": -0.25},
        "joined": datetime.datetime(2026, 12, 6, 23, 0, 0, 123000, tzinfo=datetime.timezone.utc),
    }


def main():
    language, mode, path = sys.argv[1:4]
    if language == "protobuf":
        import order_pb2

        if mode == "write":
            with open(path, "wb") as out:
                out.write(order().SerializeToString(deterministic=True))
            return
        read = order_pb2.Order()
        with open(path, "rb") as data:
            read.ParseFromString(data.read())
        print("same" if read == order() else f"differs: {read}")
        return
    import fastavro

    with open("user.avsc") as text:
        schema = fastavro.parse_schema(json.load(text))
    if mode == "write":
        buffer = io.BytesIO()
        fastavro.schemaless_writer(buffer, schema, user())
        with open(path, "wb") as out:
            out.write(buffer.getvalue())
        return
    with open(path, "rb") as data:
        read = fastavro.schemaless_reader(data, schema)
    print("same" if read == user() else f"differs: {read}")


main()
