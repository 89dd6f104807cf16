"""gRPC's own Python clients of server reflection and health checking (grpcio-reflection,
grpcio-health-checking), against a server on 127.0.0.1:PORT. Prints JSON lines for the test to read.

  reflection PORT  what ProtoReflectionDescriptorDatabase (reflection v1alpha) and a DescriptorPool
                   built from it learn of shop.v1.OrderService and its messages, the extension
                   lookups, and whether the server's reflection and health files declare the same
                   messages and services as the files grpcio ships (field names, numbers, types).
  health PORT      Check of '' and of an unknown service, then Watch of shop.v1.OrderService: prints
                   the first status, reads a line from stdin (the test sets the status meanwhile),
                   prints the next status and cancels the stream.
"""

import json
import sys

import grpc
from google.protobuf import descriptor_pb2
from google.protobuf.descriptor_pool import DescriptorPool


def emit(value):
    print(json.dumps(value), flush=True)


def comparable(file):
    """A file's messages and services as a FileDescriptorProto, without what only names the file."""
    proto = descriptor_pb2.FileDescriptorProto()
    file.CopyToProto(proto)
    kept = descriptor_pb2.FileDescriptorProto()
    kept.package = proto.package
    kept.message_type.extend(proto.message_type)
    kept.enum_type.extend(proto.enum_type)
    kept.service.extend(proto.service)

    def strip(message):
        for field in message.field:
            field.ClearField("json_name")
        for nested in message.nested_type:
            strip(nested)

    for message in kept.message_type:
        strip(message)
    return kept


def reflection(port):
    from grpc_health.v1 import health_pb2
    from grpc_reflection.v1alpha import reflection_pb2
    from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
        ProtoReflectionDescriptorDatabase,
    )

    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        database = ProtoReflectionDescriptorDatabase(channel)
        pool = DescriptorPool(database)
        service = pool.FindServiceByName("shop.v1.OrderService")
        order = pool.FindMessageTypeByName("shop.v1.Order")

        def missing(lookup):
            try:
                lookup()
                return False
            except KeyError:
                return True

        ours = {
            "v1alpha": comparable(
                pool.FindFileContainingSymbol("grpc.reflection.v1alpha.ServerReflection")
            ),
            "health": comparable(pool.FindFileContainingSymbol("grpc.health.v1.Health")),
        }
        theirs = {
            "v1alpha": comparable(reflection_pb2.DESCRIPTOR),
            "health": comparable(health_pb2.DESCRIPTOR),
        }
        emit(
            {
                "services": sorted(database.get_services()),
                "file": service.file.name,
                "methods": [
                    [
                        m.name,
                        m.input_type.full_name,
                        m.output_type.full_name,
                        m.client_streaming,
                        m.server_streaming,
                    ]
                    for m in service.methods
                ],
                "fields": [
                    [f.name, f.number, f.type, f.message_type.full_name if f.message_type else None]
                    for f in order.fields
                ],
                "extensionNumbers": list(database.FindAllExtensionNumbers("shop.v1.Order")),
                "unknownTypeMissing": missing(lambda: database.FindAllExtensionNumbers("shop.v1.Nope")),
                "symbolMissing": missing(lambda: pool.FindMessageTypeByName("shop.v1.Nope")),
                "sameAsGrpcio": {name: ours[name] == theirs[name] for name in ours},
                "differences": {
                    name: str(ours[name]) for name in ours if ours[name] != theirs[name]
                },
            }
        )


def health(port):
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        name = health_pb2.HealthCheckResponse.ServingStatus.Name
        overall = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
        try:
            stub.Check(health_pb2.HealthCheckRequest(service="nope.Nope"), timeout=10)
            unknown = "OK"
        except grpc.RpcError as error:
            unknown = error.code().name
        emit({"check": name(overall.status), "unknown": unknown})

        watch = stub.Watch(health_pb2.HealthCheckRequest(service="shop.v1.OrderService"), timeout=30)
        emit({"watch": name(next(watch).status)})
        sys.stdin.readline()
        emit({"watch": name(next(watch).status)})
        watch.cancel()


if __name__ == "__main__":
    {"reflection": reflection, "health": health}[sys.argv[1]](int(sys.argv[2]))
