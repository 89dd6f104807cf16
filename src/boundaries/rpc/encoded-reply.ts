/**
 * A reply left in the bytes it arrived in, for a caller that only passes it on in another form: the
 * edge gateway, which answers a Protocol Buffers reply as ProtoJSON (protojson-transcode.ts) without
 * building the value in between. A client made by `gatewayCallOf` hands its Protocol Buffers replies
 * over this way; `decode()` gives the value the client would have returned, with the client's codec
 * options, and throws what its decoding would have thrown.
 */
import {
  type MessageCodecOptions,
  type MessageSerializer,
  MessageSerializers,
  type RpcCodecName,
} from './message-formats.js';

export class EncodedReply {
  constructor(
    /** The message's schema and the codec options the client decodes with. */
    readonly serializers: MessageSerializers<unknown>,
    readonly bytes: Uint8Array,
  ) {}

  /** The codec options the client decodes replies with. */
  get options(): MessageCodecOptions {
    return this.serializers.options;
  }

  /** The reply as the client would have returned it. */
  decode(): unknown {
    return this.serializers.of('proto').parse(this.bytes);
  }
}

/**
 * A reply type's serializers that leave Protocol Buffers replies encoded: `parse` gives an
 * EncodedReply. Replies in any other codec are decoded as usual.
 */
export class EncodedReplySerializers extends MessageSerializers<unknown> {
  #leaveEncoded: MessageSerializer<unknown> | undefined;

  override of(codec: RpcCodecName): MessageSerializer<unknown> {
    if (codec !== 'proto') return super.of(codec);
    if (this.#leaveEncoded === undefined) {
      const decoding = new MessageSerializers<unknown>(this.schema, this.options);
      const serializer = super.of(codec);
      this.#leaveEncoded = {
        codec,
        parse: (bytes) => new EncodedReply(decoding, bytes),
        serialize: (value) => serializer.serialize(value),
      };
    }
    return this.#leaveEncoded;
  }
}
