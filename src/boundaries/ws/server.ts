/**
 * The WebSocket boundary's server half (issue 17): a Fastify plugin over @fastify/websocket whose
 * routes speak one wire format per connection, negotiated with `Sec-WebSocket-Protocol`
 * (negotiate/subprotocol.ts). Each message is one frame: binary formats in binary frames, JSON in
 * text frames, so a browser console or websocat keeps working without asking for anything.
 *
 * Bad input never reaches the handler: a frame over `maxFrameBytes` is refused by `ws` itself
 * (close 1009), a frame that does not decode or validate closes the connection with 1007 and the
 * wirekit error code as the reason, or is counted and skipped (`onInvalid: 'skip'`). Not built
 * yet (see the note): the bounded send queue, the client, the debug rendering.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Codec, FormatName } from '../../codecs/core/codec.js';
import { createCodec } from '../../codecs/registry.js';
import { WirekitError } from '../../errors/index.js';
import { chooseSubprotocol, parseSubprotocols } from '../../negotiate/index.js';
import type { Infer, Schema } from '../../schema/index.js';

/** The formats a socket may speak: those with one message per frame (no table formats). */
export type SocketFormat = Extract<FormatName, 'json' | 'msgpack' | 'cbor' | 'protobuf' | 'avro'>;

export const socketFormats: readonly SocketFormat[] = ['json', 'msgpack', 'cbor', 'protobuf', 'avro'];

/** RFC 6455 close codes wirekit sends. */
export const closeCodes = { invalidPayload: 1007, tooBig: 1009 } as const;

export interface SocketPluginOptions {
  /** The formats served, in no order of preference (the client's wins). Default: all five. */
  readonly formats?: readonly SocketFormat[];
  /** The largest frame accepted, in bytes (default 1 MiB); a larger one closes with 1009. */
  readonly maxFrameBytes?: number;
}

export interface SocketRoute<R extends Schema, S extends Schema> {
  readonly url: string;
  /** What clients send, checked on every frame. */
  readonly receive: R;
  /** What the server sends, checked before every frame. */
  readonly send: S;
  /** A frame that does not decode: close with 1007 (default), or count it and go on. */
  readonly onInvalid?: 'close' | 'skip';
  readonly handler: (connection: SocketConnection<Infer<R>, Infer<S>>) => void | Promise<void>;
}

export interface SocketConnection<In, Out> {
  readonly format: SocketFormat;
  /** The subprotocol selected, or undefined for plain JSON in text frames. */
  readonly protocol: string | undefined;
  /** The decoded messages, in order; ends when the connection closes. */
  readonly messages: AsyncIterable<In>;
  send(value: Out): void;
  close(code?: number, reason?: string): void;
  /** Frames refused so far (with `onInvalid: 'skip'`). */
  readonly skipped: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    wirekitSocket<R extends Schema, S extends Schema>(route: SocketRoute<R, S>): void;
  }
}

/** Registers @fastify/websocket with wirekit's negotiation and decorates `app.wirekitSocket`. */
export const wirekitSockets = fp(
  async (app: FastifyInstance, options: SocketPluginOptions) => {
    const formats = options.formats ?? socketFormats;
    const maxFrameBytes = options.maxFrameBytes ?? 1024 * 1024;
    if (!Number.isSafeInteger(maxFrameBytes) || maxFrameBytes < 1)
      throw new WirekitError(
        'WK_OPTIONS_INVALID',
        `maxFrameBytes must be a positive integer, got ${maxFrameBytes}.`,
      );
    await app.register(websocket, {
      options: {
        maxPayload: maxFrameBytes,
        handleProtocols: (offered) => chooseSubprotocol([...offered], formats).protocol ?? false,
      },
    });
    app.decorate('wirekitSocket', function wirekitSocket<
      R extends Schema,
      S extends Schema,
    >(route: SocketRoute<R, S>) {
      type In = Infer<R>;
      type Out = Infer<S>;
      const codecs = new Map<SocketFormat, { receive: Codec<In>; send: Codec<Out> }>();
      const codecsOf = (format: SocketFormat) => {
        let pair = codecs.get(format);
        if (pair === undefined) {
          pair = {
            receive: createCodec(format, { schema: route.receive, validate: true }) as Codec<In>,
            send: createCodec(format, { schema: route.send, validate: true }) as Codec<Out>,
          };
          codecs.set(format, pair);
        }
        return pair;
      };
      app.get(route.url, { websocket: true }, (socket, request) => {
        const choice = chooseSubprotocol(
          parseSubprotocols(request.headers['sec-websocket-protocol']),
          formats,
        );
        const format = choice.format as SocketFormat;
        const { receive, send } = codecsOf(format);
        const queue: In[] = [];
        let wake: (() => void) | undefined;
        let closed = false;
        let skipped = 0;
        socket.on('message', (data, isBinary) => {
          const bytes = toBytes(data);
          try {
            // JSON arrives in text frames; a binary format in binary ones. The other kind is refused.
            if (isBinary !== (choice.frames === 'binary'))
              throw new WirekitError('WK_DECODE_MALFORMED', `expected a ${choice.frames} frame.`);
            queue.push(receive.decode(bytes));
          } catch (error) {
            const code = error instanceof WirekitError ? error.code : 'WK_DECODE_MALFORMED';
            if (route.onInvalid === 'skip') skipped++;
            else socket.close(closeCodes.invalidPayload, code);
          }
          wake?.();
        });
        socket.on('close', () => {
          closed = true;
          wake?.();
        });
        const messages: AsyncIterable<In> = {
          async *[Symbol.asyncIterator]() {
            for (;;) {
              const next = queue.shift();
              if (next !== undefined) yield next;
              else if (closed) return;
              else await new Promise<void>((resolve) => (wake = resolve));
            }
          },
        };
        const connection: SocketConnection<In, Out> = {
          format,
          protocol: choice.protocol,
          messages,
          send(value) {
            // JSON's bytes are its UTF-8 text: ws sends them as a text frame as they are.
            socket.send(send.encode(value), { binary: choice.frames === 'binary' });
          },
          close: (code, reason) => socket.close(code, reason),
          get skipped() {
            return skipped;
          },
        };
        void Promise.resolve(route.handler(connection)).catch((error: unknown) => {
          request.log.error({ err: error }, 'wirekit socket handler failed');
          socket.close(1011, 'WK_HANDLER_FAILED');
        });
      });
    });
  },
  { name: 'wirekit-sockets', fastify: '5.x' },
);

function toBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}
