"""Writes Avro events to Kafka with Confluent's own Python stack: confluent-kafka's producer and its
AvroSerializer, which registers the schema under TOPIC-value (TopicNameStrategy) and frames each
event with the registry's id. Values come as JSON lines on stdin.

usage: confluent_produce.py BOOTSTRAP REGISTRY_URL TOPIC SCHEMA_FILE < values.jsonl
"""
import json
import sys

from confluent_kafka import Producer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroSerializer
from confluent_kafka.serialization import MessageField, SerializationContext

bootstrap, registry_url, topic, schema_file = sys.argv[1:5]
registry = SchemaRegistryClient({"url": registry_url})
serialize = AvroSerializer(registry, open(schema_file).read())
producer = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
failures = []


def delivered(error, _message):
    if error is not None:
        failures.append(str(error))


sent = 0
for line in sys.stdin:
    if not line.strip():
        continue
    record = json.loads(line)
    frame = serialize(record["value"], SerializationContext(topic, MessageField.VALUE))
    producer.produce(topic, key=record.get("key"), value=frame, on_delivery=delivered)
    sent += 1
producer.flush(30)
if failures:
    raise SystemExit(f"{len(failures)} deliveries failed: {failures[:3]}")
print(json.dumps({"sent": sent}))
