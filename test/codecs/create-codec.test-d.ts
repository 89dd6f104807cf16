import { describe, expectTypeOf, test } from 'vitest';
import { type Codec, createCodec, findFormat } from '../../src/codecs/index.js';
import { type Schema, t } from '../../src/index.js';

const User = t.object('User', { id: t.int64(), name: t.string() });

describe('createCodec', () => {
  test('a schema types the codec, under any format name or registered media type', () => {
    expectTypeOf(createCodec('protobuf', { schema: User })).toEqualTypeOf<
      Codec<{ id: bigint; name: string }>
    >();
    expectTypeOf(createCodec('application/x-protobuf', { schema: User })).toEqualTypeOf<
      Codec<{ id: bigint; name: string }>
    >();
    expectTypeOf(createCodec('application/x-msgpack')).toEqualTypeOf<Codec<unknown>>();
    expectTypeOf(createCodec('application/x-ndjson', { limits: { maxDepth: 5 } })).toEqualTypeOf<
      Codec<unknown>
    >();
  });

  test('a misspelt format does not compile', () => {
    // @ts-expect-error: no such format
    createCodec('msgpak');
    // @ts-expect-error: media types are matched as registered; findFormat takes parameters and case
    createCodec('Application/MsgPack; charset=utf-8');
    expectTypeOf(findFormat('Application/MsgPack; charset=utf-8')).toEqualTypeOf<
      'json' | 'msgpack' | 'cbor' | 'protobuf' | 'avro' | 'flatbuffers' | 'arrow' | undefined
    >();
  });

  test('a format without names on the wire does not compile without a schema', () => {
    // @ts-expect-error: Protocol Buffers needs a schema
    createCodec('protobuf');
    // @ts-expect-error: Avro needs a schema, whatever other options are given
    createCodec('avro', { limits: { maxDepth: 10 } });
    // @ts-expect-error: by media type too
    createCodec('application/x-flatbuffers');
  });

  test('a schema known only at run time is checked then', () => {
    const fromConfig = undefined as Schema | undefined;
    expectTypeOf(createCodec('protobuf', { schema: fromConfig })).toEqualTypeOf<Codec<unknown>>();
  });
});
