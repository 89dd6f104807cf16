"""A WebSocket peer for wirekit's socket routes, written with Python's own libraries only.

test/boundaries/ws/python-peer.test.ts runs it with Debian's Python (websockets 10.4, msgpack,
cbor2, google.protobuf, avro). It reads one JSON object on stdin (see `main`), talks to the
server, and prints one JSON line of what it saw. Every value it decodes is turned into the schema's
JSON form (timestamps as RFC 3339 text with milliseconds, enums as member names, an absent
optional field left out), so the test compares them exactly with what wirekit was given. Nothing
here compares with wirekit's output: the point is that an independent decoder agrees.

The schema is fixed (the test's Order): id string, price float64, qty int32, lot uint32, live
bool, side enum, at timestamp (ms), note optional string, legs array of {venue string, size int32}.
"""

import asyncio
import datetime
import importlib
import io
import json
import sys

import avro.io
import avro.schema
import cbor2
import msgpack
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake

UTC = datetime.timezone.utc
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)
MS = datetime.timedelta(milliseconds=1)
US = datetime.timedelta(microseconds=1)


def iso_of_ms(ms):
    """RFC 3339 text with milliseconds, as JavaScript's toISOString writes it (exact: integer ms)."""
    moment = EPOCH + datetime.timedelta(milliseconds=ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + ".%03dZ" % (moment.microsecond // 1000)


def ms_of_iso(text):
    moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    micros = (moment - EPOCH) // US
    assert micros % 1000 == 0, f"{text} is not a whole millisecond"
    return micros // 1000


def iso_of_datetime(moment):
    """A decoded datetime in the same text, or with its microseconds when they are not whole ms."""
    assert moment.tzinfo is not None, f"{moment} has no time zone"
    micros = (moment - EPOCH) // US
    if micros % 1000 != 0:
        return moment.astimezone(UTC).isoformat()  # differs from the expected text on purpose
    return iso_of_ms(micros // 1000)


def canonical(order, at_text):
    """The JSON form of a decoded order: `at` given as text, `note` left out when absent."""
    out = {
        "id": order["id"],
        "price": order["price"],
        "qty": order["qty"],
        "lot": order["lot"],
        "live": order["live"],
        "side": order["side"],
        "at": at_text,
    }
    if order.get("note") is not None:
        out["note"] = order["note"]
    out["legs"] = [{"venue": leg["venue"], "size": leg["size"]} for leg in order["legs"]]
    return out


class Formats:
    """One decoder and one encoder per protocol, each by the format's own Python library."""

    def __init__(self, config):
        sys.path.insert(0, config["protoDir"])
        self.pb = importlib.import_module(config["protoModule"])
        self.avro = avro.schema.parse(json.dumps(config["avroSchema"]))
        self.members = config["sideMembers"]

    def decode(self, protocol, frame):
        if protocol == "wirekit.json":
            order = json.loads(frame)
            return canonical(order, iso_of_ms(ms_of_iso(order["at"])))
        if protocol == "wirekit.msgpack":
            # timestamp=0: the extension -1 as msgpack.Timestamp, seconds and nanoseconds exactly.
            order = msgpack.unpackb(frame, raw=False, timestamp=0)
            nanos = order["at"].to_unix_nano()
            at = iso_of_ms(nanos // 10**6) if nanos % 10**6 == 0 else f"{nanos} ns"
            return canonical(order, at)
        if protocol == "wirekit.cbor":
            order = cbor2.loads(frame)
            return canonical(order, iso_of_datetime(order["at"]))
        if protocol == "wirekit.protobuf":
            message = self.pb.Order()
            message.ParseFromString(frame)
            at = message.at.seconds * 1000 + message.at.nanos // 10**6
            side = self.members[message.side]
            # The number is what the wire carries; the name protoc generated must be the same member.
            assert self.pb.Side.Name(message.side) == "SIDE_" + side.upper()
            order = {
                "id": message.id,
                "price": message.price,
                "qty": message.qty,
                "lot": message.lot,
                "live": message.live,
                "side": side,
                "note": message.note if message.HasField("note") else None,
                "legs": [{"venue": leg.venue, "size": leg.size} for leg in message.legs],
            }
            exact = message.at.nanos % 10**6 == 0
            return canonical(order, iso_of_ms(at) if exact else f"{message.at} (not whole ms)")
        if protocol == "wirekit.avro":
            buffer = io.BytesIO(frame)
            order = avro.io.DatumReader(self.avro).read(avro.io.BinaryDecoder(buffer))
            assert buffer.read() == b"", "bytes left over after the datum"
            return canonical(order, iso_of_datetime(order["at"]))
        raise ValueError(protocol)

    def encode(self, protocol, order):
        """The JSON form `order` written by the protocol's own library (str for JSON, else bytes)."""
        ms = ms_of_iso(order["at"])
        moment = EPOCH + ms * MS
        if protocol == "wirekit.json":
            return json.dumps(order)
        if protocol == "wirekit.msgpack":
            value = dict(order, at=msgpack.Timestamp.from_unix_nano(ms * 10**6))
            return msgpack.packb(value, use_bin_type=True)
        if protocol == "wirekit.cbor":
            # cbor2's default for an aware datetime: tag 0, RFC 3339 text.
            return cbor2.dumps(dict(order, at=moment))
        if protocol == "wirekit.protobuf":
            message = self.pb.Order(
                id=order["id"],
                price=order["price"],
                qty=order["qty"],
                lot=order["lot"],
                live=order["live"],
                side=self.pb.Side.Value("SIDE_" + order["side"].upper()),
            )
            message.at.FromMilliseconds(ms)
            if "note" in order:
                message.note = order["note"]
            for leg in order["legs"]:
                message.legs.add(venue=leg["venue"], size=leg["size"])
            return message.SerializeToString()
        if protocol == "wirekit.avro":
            buffer = io.BytesIO()
            datum = dict(order, at=moment, note=order.get("note"))
            avro.io.DatumWriter(self.avro).write(datum, avro.io.BinaryEncoder(buffer))
            return buffer.getvalue()
        raise ValueError(protocol)


def kind(frame):
    return "text" if isinstance(frame, str) else "binary"


async def closed_by_server(socket):
    """Reads until the server closes; the close code and reason it sent."""
    try:
        while True:
            await socket.recv()
    except ConnectionClosed:
        pass
    return {"code": socket.close_code, "reason": socket.close_reason}


async def read_list(url, subprotocols, count, formats, decode_as):
    async with websockets.connect(url, subprotocols=subprotocols) as socket:
        frames = [await socket.recv() for _ in range(count)]
        return {
            "selected": socket.subprotocol,
            "kinds": [kind(frame) for frame in frames],
            "received": [formats.decode(decode_as, frame) for frame in frames],
        }


async def echo(url, protocol, messages, formats):
    async with websockets.connect(url, subprotocols=[protocol]) as socket:
        echoed, kinds = [], []
        for order in messages:
            await socket.send(formats.encode(protocol, order))
            frame = await socket.recv()
            kinds.append(kind(frame))
            echoed.append(formats.decode(protocol, frame))
        return {"selected": socket.subprotocol, "kinds": kinds, "echoed": echoed}


async def run(config):
    formats = Formats(config)
    base, count = config["base"], len(config["list"])
    results = {"protocols": {}}
    for protocol in config["protocols"]:
        listed = await read_list(f"{base}/list", [protocol], count, formats, protocol)
        echoed = await echo(f"{base}/echo", protocol, config["echo"], formats)
        results["protocols"][protocol] = {**listed, "echo": echoed}
    # No subprotocol offered: JSON in text frames.
    results["none"] = await read_list(f"{base}/list", None, count, formats, "wirekit.json")
    # Only unknown protocols offered: the server selects none. websockets 10.4 raises only when the
    # server selects one that was not offered (RFC 6455 §4.1), so what happens is recorded as is.
    try:
        unknown = await read_list(f"{base}/list", ["chat", "wirekit.flatbuffers"], count, formats, "wirekit.json")
        results["unknown"] = {"raised": None, **unknown}
    except InvalidHandshake as error:
        results["unknown"] = {"raised": type(error).__name__, "message": str(error)}
    async with websockets.connect(f"{base}/echo", subprotocols=["wirekit.msgpack"]) as socket:
        await socket.send(b"\xc1")  # 0xc1 is never a MessagePack item
        results["malformed"] = await closed_by_server(socket)
    async with websockets.connect(f"{base}/echo", subprotocols=["wirekit.cbor"]) as socket:
        await socket.send(bytes(config["maxFrameBytes"] + 1))
        results["oversized"] = await closed_by_server(socket)
    return results


def main():
    config = json.load(sys.stdin)
    print(json.dumps(asyncio.run(run(config))))


if __name__ == "__main__":
    main()
