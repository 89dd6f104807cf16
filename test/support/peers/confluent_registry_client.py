"""Talks to a schema registry with Confluent's own Python client (confluent-kafka's
SchemaRegistryClient), configured as its users configure it: Basic auth through
basic.auth.user.info, TLS through ssl.ca.location (and a client certificate when given).
It registers an Avro schema, reads it back by id, then tries a permanent delete; it prints what
each step answered, a refusal as its HTTP status and Confluent error code.

usage: confluent_registry_client.py CONFIG_JSON SUBJECT SCHEMA_JSON
"""
import json
import sys

from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
from confluent_kafka.schema_registry.error import SchemaRegistryError

config, subject, schema = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
client = SchemaRegistryClient(config)


def attempt(step):
    try:
        return {"ok": step()}
    except SchemaRegistryError as error:
        return {"status": error.http_status_code, "error_code": error.error_code}


out = {}
out["register"] = attempt(lambda: client.register_schema(subject, Schema(schema, "AVRO")))
if "ok" in out["register"]:
    out["schema"] = attempt(lambda: client.get_schema(out["register"]["ok"]).schema_str)
out["delete"] = attempt(lambda: client.delete_subject(subject, permanent=False))
print(json.dumps(out))
