"""Confluent's own Python serializers against a schema registry: ProtobufSerializer and
ProtobufDeserializer (message classes built at run time from a protoc descriptor set, so no
generated code is involved), AvroSerializer and AvroDeserializer, configured as their users
configure them (auto.register.schemas, the default subject and reference subject strategies).

usage:
  confluent_protobuf.py produce REGISTRY_URL DESCRIPTOR_SET REQUESTS_JSON
  confluent_protobuf.py consume REGISTRY_URL DESCRIPTOR_SET REQUESTS_JSON

REQUESTS_JSON is a list of requests; each is
  {"topic": T, "protobuf": FULL_NAME, "value": JSON}  (produce: json_format.ParseDict into the message)
  {"topic": T, "avro": SCHEMA_JSON, "value": JSON}    (produce)
  {"topic": T, "protobuf": FULL_NAME, "frame": HEX}   (consume: json_format.MessageToDict of the message)
  {"topic": T, "avro": SCHEMA_JSON or null, "frame": HEX} (consume)
An Avro request may add "references": [{"name", "subject", "version"}], the subjects' versions
whose named types its schema uses (the schema then goes to the serializer as a Schema with them).
It prints one JSON list: per request {"frame": HEX} or {"value": JSON}, or {"error": TEXT}.
"""
import json
import sys

from confluent_kafka.schema_registry import Schema, SchemaReference, SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer
from confluent_kafka.serialization import MessageField, SerializationContext
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from google.protobuf import timestamp_pb2  # noqa: F401  (puts timestamp.proto in the default pool)

mode, url, descriptor_set, requests = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
client = SchemaRegistryClient({"url": url})

pool = descriptor_pool.Default()
files = descriptor_pb2.FileDescriptorSet()
with open(descriptor_set, "rb") as handle:
    files.ParseFromString(handle.read())
for file in files.file:
    try:
        pool.FindFileByName(file.name)
    except KeyError:
        pool.Add(file)


def message_class(full_name):
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(full_name))


def avro_schema(request):
    references = request.get("references")
    if references is None or request.get("avro") is None:
        return request.get("avro")
    named = [SchemaReference(ref["name"], ref["subject"], ref["version"]) for ref in references]
    return Schema(request["avro"], "AVRO", named)


def run(request):
    ctx = SerializationContext(request["topic"], MessageField.VALUE)
    if mode == "produce":
        if "protobuf" in request:
            cls = message_class(request["protobuf"])
            serializer = ProtobufSerializer(cls, client, {"use.deprecated.format": False})
            message = json_format.ParseDict(request["value"], cls())
            return {"frame": serializer(message, ctx).hex()}
        serializer = AvroSerializer(client, avro_schema(request))
        return {"frame": serializer(request["value"], ctx).hex()}
    frame = bytes.fromhex(request["frame"])
    if "protobuf" in request:
        cls = message_class(request["protobuf"])
        deserializer = ProtobufDeserializer(cls, {"use.deprecated.format": False}, client)
        message = deserializer(frame, ctx)
        return {"value": json_format.MessageToDict(message, preserving_proto_field_name=True)}
    deserializer = AvroDeserializer(client, avro_schema(request))
    return {"value": deserializer(frame, ctx)}


out = []
for request in requests:
    try:
        out.append(run(request))
    except Exception as error:  # the test reads the failure, whatever raised it
        out.append({"error": f"{type(error).__name__}: {error}"})
print(json.dumps(out, default=str))
