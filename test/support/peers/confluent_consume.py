"""Reads Avro events from Kafka with Confluent's own Python stack: confluent-kafka's consumer
(librdkafka) and its AvroDeserializer, which fetches each writer schema from the registry by the id
in the frame and decodes with fastavro. Prints one JSON object per event (value, key, schema id).

usage: confluent_consume.py BOOTSTRAP REGISTRY_URL TOPIC COUNT [READER_SCHEMA_FILE]
"""
import json
import sys

from confluent_kafka import Consumer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer
from confluent_kafka.serialization import MessageField, SerializationContext

bootstrap, registry_url, topic, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
reader = open(sys.argv[5]).read() if len(sys.argv) > 5 else None

registry = SchemaRegistryClient({"url": registry_url})
deserialize = AvroDeserializer(registry, reader)
consumer = Consumer(
    {
        "bootstrap.servers": bootstrap,
        "group.id": "python-peer",
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
    }
)
consumer.subscribe([topic])
seen = 0
idle = 0
while seen < count and idle < 60:
    message = consumer.poll(1.0)
    if message is None:
        idle += 1
        continue
    if message.error():
        raise SystemExit(f"consumer error: {message.error()}")
    idle = 0
    frame = message.value()
    value = deserialize(frame, SerializationContext(topic, MessageField.VALUE))
    key = message.key().decode() if message.key() is not None else None
    schema_id = int.from_bytes(frame[1:5], "big")
    print(json.dumps({"key": key, "schemaId": schema_id, "value": value}, default=str, sort_keys=True), flush=True)
    seen += 1
consumer.close()
if seen < count:
    raise SystemExit(f"read {seen} of {count} events")
