/**
 * Placeholder until the fast transcoder lands: the slow path only.
 */
import { createProtobufCodec } from './index.js';
import { createProtoJsonCodec, type ProtoJsonCodecOptions } from './protojson.js';

export interface ProtoJsonTranscoder {
  transcode(bytes: Uint8Array): Uint8Array;
}

export function createProtoJsonTranscoder(options: ProtoJsonCodecOptions): ProtoJsonTranscoder {
  const { emitDefaults: _e, ignoreUnknownFields: _i, ...binary } = options;
  const protobuf = createProtobufCodec(binary);
  const protojson = createProtoJsonCodec(options);
  return { transcode: (bytes) => protojson.encode(protobuf.decode(bytes)) };
}
