"""A gRPC client of the RPC tests' orders.v1.OrderService, written with Python's grpcio alone.

test/boundaries/rpc/server/python-grpcio.test.ts runs it with the venv's Python (grpcio,
grpcio-tools, protobuf). Arguments: the `.proto` file wirekit's toProto wrote, and the server's
address (host:port). It generates the message and stub modules with grpc_tools.protoc into a
temporary folder, calls every method kind, and prints one JSON object of what it received: each
message as protobuf's own json_format gives it (int64 as strings, bytes as base64, Timestamp as
RFC 3339), and each failure as its status code name and details.
"""

import importlib
import json
import os
import sys
import tempfile

import grpc
from google.protobuf import json_format
from grpc_tools import protoc


def compile_stubs(proto_path, out_dir):
    """protoc with the grpc plugin; grpc_tools ships the well-known .proto files itself."""
    include = os.path.join(os.path.dirname(protoc.__file__), "_proto")
    args = [
        "protoc",
        "-I" + os.path.dirname(proto_path),
        "-I" + include,
        "--python_out=" + out_dir,
        "--grpc_python_out=" + out_dir,
        os.path.basename(proto_path),
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    sys.path.insert(0, out_dir)
    stem = os.path.splitext(os.path.basename(proto_path))[0]
    return importlib.import_module(stem + "_pb2"), importlib.import_module(stem + "_pb2_grpc")


def as_json(message):
    return json_format.MessageToDict(message)


def failure(error):
    return {"code": error.code().name, "details": error.details()}


def main():
    proto_path, address = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="s42-rpc-server-py-") as out_dir:
        pb, stubs = compile_stubs(proto_path, out_dir)
        seen = {}
        with grpc.insecure_channel(address) as channel:
            stub = stubs.OrderServiceStub(channel)
            big = 2**53 + 1
            reply = stub.GetOrder(pb.GetOrder(id=big), timeout=10)
            seen["unary"] = as_json(reply)
            seen["unaryHasNote"] = reply.HasField("note")
            seen["serverStream"] = [str(m.id) for m in stub.WatchOrders(pb.GetOrder(id=3), timeout=10)]

            def orders():
                for i, note in ((1, "a"), (big, None), (3, "c")):
                    order = pb.Order(id=i, total="1.50", quantity=2, payload=b"\x00\xff")
                    order.placedAt.FromJsonString("2026-12-07T08:00:00.123Z")
                    if note is not None:
                        order.note = note
                    yield order

            seen["clientStream"] = as_json(stub.Upload(orders(), timeout=10))
            seen["bidi"] = [m.note for m in stub.Chat(orders(), timeout=10)]
            try:
                stub.GetOrder(pb.GetOrder(id=1, failWith="wirekit"), timeout=10)
                seen["error"] = None
            except grpc.RpcError as error:
                seen["error"] = failure(error)
            try:
                list(stub.WatchOrders(pb.GetOrder(id=5, failWith="midway"), timeout=10))
                seen["streamError"] = None
            except grpc.RpcError as error:
                seen["streamError"] = failure(error)
        print(json.dumps(seen))


if __name__ == "__main__":
    main()
