/**
 * The WebSocket boundary's server half: a Fastify plugin over @fastify/websocket whose routes speak
 * one wire format per connection, negotiated with `Sec-WebSocket-Protocol` (negotiate/subprotocol.ts),
 * one message per frame (JSON in text frames, so a browser console or websocat keeps working). Bad
 * input never reaches the handler, memory stays bounded both ways, and peers that vanish are cut
 * by pings: docs/ws.md gives the options and close codes behind each.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import type { Codec, UnknownKeys } from '../../codecs/core/codec.js';
import { createCodec } from '../../codecs/registry.js';
import { type ErrorCode, WirekitError } from '../../errors/index.js';
import { chooseSubprotocol, parseSubprotocols } from '../../negotiate/index.js';
import type { Infer, Schema } from '../../schema/index.js';
import { importPeer } from '../../util/optional-peer.js';
import {
  type DebugFrameOptions,
  defaultDebugChars,
  type FrameLogEntry,
  FrameRenderer,
} from './debug-frames.js';
import {
  closeCodes,
  countsView,
  frameKindOf,
  messageCounts,
  payloadBytes,
  positiveOption,
  type SocketFormat,
  socketFormats,
} from './frames.js';
import { Inbox } from './inbox.js';

export interface SocketPluginOptions {
  /** The formats served, in no order of preference (the client's wins). Default: all five. */
  readonly formats?: readonly SocketFormat[];
  /** The largest frame accepted, in bytes (default 1 MiB); a larger one closes with 1009. */
  readonly maxFrameBytes?: number;
  /** Bytes a connection may have waiting to be sent before it counts as slow (default 1 MiB). */
  readonly maxQueuedBytes?: number;
  /** Received messages the handler has not read before the socket is paused (default 1,024). */
  readonly maxQueuedMessages?: number;
  /** What a message sent to a slow connection does: it is dropped (default), or the connection closes with 1008. */
  readonly onSlowConsumer?: 'drop' | 'close';
  /** Log each frame at debug level as bounded JSON (`true`, or `{ maxChars }`); off by default. */
  readonly debugFrames?: boolean | DebugFrameOptions;
  /** How often each connection is pinged; one that missed the last ping is cut (default 30 s). */
  readonly pingIntervalMs?: number;
  /** On app close, how long peers get to answer the close frame before their sockets are cut (default 2 s). */
  readonly closeTimeoutMs?: number;
  /**
   * A key of a received message that the route's `receive` schema does not name: 'ignore'
   * (default) skips it, 'reject' makes the frame invalid (`onInvalid`). Routes may override it.
   */
  readonly unknownKeys?: UnknownKeys;
}

export interface SocketRoute<R extends Schema, S extends Schema> {
  readonly url: string;
  /** What clients send, checked on every frame. */
  readonly receive: R;
  /** What the server sends, checked before every frame. */
  readonly send: S;
  /** A frame that does not decode: close with 1007 (default), or count it and go on. */
  readonly onInvalid?: 'close' | 'skip';
  /** Overrides the plugin's `unknownKeys` for the messages this route receives. */
  readonly unknownKeys?: UnknownKeys;
  /** Overrides the plugin's `onSlowConsumer` for this route. */
  readonly onSlowConsumer?: 'drop' | 'close';
  /**
   * Runs once per connection. The connection lives until either side closes it (a handler that
   * returns does not close it); a handler that throws closes it with 1011.
   */
  readonly handler: (connection: SocketConnection<Infer<R>, Infer<S>>) => void | Promise<void>;
}

/** A route's counts since it was registered, live: read them whenever (a metrics scrape, a bench). */
export interface SocketRouteStats {
  /** Connections open now. */
  readonly open: number;
  /** Connections accepted in all. */
  readonly opened: number;
  /** Messages received and decoded. */
  readonly received: number;
  /** Messages handed to the socket. */
  readonly sent: number;
  /** Payload bytes of the frames received, refused ones included (frame headers not counted). */
  readonly receivedBytes: number;
  /** Payload bytes of the messages handed to the socket. */
  readonly sentBytes: number;
  /** Messages not sent because their connection's send queue was full. */
  readonly dropped: number;
  /** Frames refused and skipped (`onInvalid: 'skip'`). */
  readonly skipped: number;
  /** Connections closed with 1008 for reading too slowly. */
  readonly closedSlow: number;
  /** Connections cut for not answering a ping. */
  readonly timedOut: number;
}

export interface SocketRouteHandle<Out> {
  readonly stats: SocketRouteStats;
  /** Sends one value to every open connection of the route, encoded once per format; returns how many took it. */
  broadcast(value: Out): number;
}

export interface SocketConnection<In, Out> {
  readonly format: SocketFormat;
  /** The subprotocol selected, or undefined for plain JSON in text frames. */
  readonly protocol: string | undefined;
  /** The upgrade request: headers, query, the logger. */
  readonly request: FastifyRequest;
  /** The decoded messages, in order; ends when the connection closes. One reader at a time. */
  readonly messages: AsyncIterable<In>;
  /** Aborted when the connection closes: stop timers and work done for it. */
  readonly signal: AbortSignal;
  /** Encodes and sends; false when the connection is closed or slow (the message is dropped). Throws on a value the schema refuses. */
  send(value: Out): boolean;
  close(code?: number, reason?: string): void;
  /** Bytes waiting to be sent to this peer. */
  readonly bufferedBytes: number;
  /** Messages dropped for this connection because its send queue was full. */
  readonly dropped: number;
  /** Frames refused so far (with `onInvalid: 'skip'`). */
  readonly skipped: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    wirekitSocket<R extends Schema, S extends Schema>(route: SocketRoute<R, S>): SocketRouteHandle<Infer<S>>;
  }
}

const mebibyte = 1024 * 1024;

/** One renderer per direction: incoming frames follow the receive schema, outgoing the send one. */
interface Renderers {
  readonly in: FrameRenderer;
  readonly out: FrameRenderer;
}

/** Registers @fastify/websocket with wirekit's negotiation and decorates `app.wirekitSocket`. */
export const wirekitSockets = fp(
  async (app: FastifyInstance, options: SocketPluginOptions) => {
    // An optional peer, loaded at registration so that `wirekit-ts/ws` loads without it.
    const websocket = await importPeer(
      async () => (await import('@fastify/websocket')).default,
      'wirekitSockets',
      '@fastify/websocket',
    );
    const formats = options.formats ?? socketFormats;
    const maxFrameBytes = positiveOption('maxFrameBytes', options.maxFrameBytes ?? mebibyte);
    const maxQueuedBytes = positiveOption('maxQueuedBytes', options.maxQueuedBytes ?? mebibyte);
    const maxQueuedMessages = positiveOption('maxQueuedMessages', options.maxQueuedMessages ?? 1024);
    const debugChars =
      options.debugFrames === undefined || options.debugFrames === false
        ? undefined
        : positiveOption(
            'debugFrames.maxChars',
            (options.debugFrames === true ? {} : options.debugFrames).maxChars ?? defaultDebugChars,
          );
    const pingIntervalMs = positiveOption('pingIntervalMs', options.pingIntervalMs ?? 30_000);
    const closeTimeoutMs = positiveOption('closeTimeoutMs', options.closeTimeoutMs ?? 2_000);
    // Every open socket of every route, with whether it answered the last ping.
    const sockets = new Map<WebSocket, { alive: boolean; onTimeout: () => void }>();
    const heartbeat = setInterval(() => {
      for (const [socket, peer] of sockets) {
        if (!peer.alive) {
          peer.onTimeout();
          socket.terminate();
          continue;
        }
        peer.alive = false;
        socket.ping();
      }
    }, pingIntervalMs);
    heartbeat.unref();
    // Registered before @fastify/websocket's own hook, so that peers see 1001 rather than no code.
    app.addHook('preClose', (done) => {
      clearInterval(heartbeat);
      for (const socket of sockets.keys()) socket.close(closeCodes.goingAway);
      if (sockets.size === 0) return done();
      const cut = setTimeout(() => {
        for (const socket of sockets.keys()) socket.terminate();
      }, closeTimeoutMs);
      cut.unref();
      done();
    });
    await app.register(websocket, {
      options: {
        maxPayload: maxFrameBytes,
        handleProtocols: (offered) => chooseSubprotocol([...offered], formats).protocol ?? false,
      },
    });

    app.decorate('wirekitSocket', function wirekitSocket<
      R extends Schema,
      S extends Schema,
    >(this: FastifyInstance, route: SocketRoute<R, S>): SocketRouteHandle<Infer<S>> {
      type In = Infer<R>;
      type Out = Infer<S>;
      const onSlowConsumer = route.onSlowConsumer ?? options.onSlowConsumer ?? 'drop';
      const skipInvalid = route.onInvalid === 'skip';
      const counts = { opened: 0, ...messageCounts(), closedSlow: 0, timedOut: 0 };
      const live = new Set<Peer>();
      const codecs = new Map<SocketFormat, { receive: Codec<In>; send: Codec<Out> }>();
      const codecsOf = (format: SocketFormat) => {
        let pair = codecs.get(format);
        if (pair === undefined) {
          pair = {
            receive: createCodec(format, {
              schema: route.receive,
              validate: true,
              unknownKeys: route.unknownKeys ?? options.unknownKeys ?? 'ignore',
            }) as Codec<In>,
            send: createCodec(format, { schema: route.send, validate: true }) as Codec<Out>,
          };
          codecs.set(format, pair);
        }
        return pair;
      };
      const renderers: Renderers | undefined =
        debugChars === undefined
          ? undefined
          : {
              in: new FrameRenderer(route.receive, debugChars),
              out: new FrameRenderer(route.send, debugChars),
            };

      /** One open connection as the route sees it: how to hand it bytes already encoded. */
      interface Peer {
        readonly format: SocketFormat;
        /** Sends a frame's bytes; false when it was dropped or the connection is gone. */
        sendBytes(bytes: Uint8Array, value: Out): boolean;
      }

      // On the instance it is called on, so that a plugin's prefix and hooks (authentication of the
      // upgrade request, say) apply to the route as they do to any other route of that plugin.
      this.get(route.url, { websocket: true }, (socket, request) => {
        const choice = chooseSubprotocol(
          parseSubprotocols(request.headers['sec-websocket-protocol']),
          formats,
        );
        const format = choice.format as SocketFormat;
        const binary = frameKindOf(format) === 'binary';
        const { receive, send } = codecsOf(format);
        const log = renderers !== undefined && debugEnabled(request.log) ? request.log : undefined;
        const closing = new AbortController();
        let dropped = 0;
        let skipped = 0;
        let paused = false;
        const inbox = new Inbox<In>(
          () => {
            if (paused) {
              paused = false;
              socket.resume();
            }
          },
          Math.floor(maxQueuedMessages / 2),
        );

        const closeWith = (code: number, reason: ErrorCode) => socket.close(code, reason);

        const peer: Peer = {
          format,
          sendBytes(bytes, value) {
            if (socket.readyState !== socket.OPEN) return false;
            if (socket.bufferedAmount + bytes.length > maxQueuedBytes) {
              if (onSlowConsumer === 'close') {
                counts.closedSlow++;
                closeWith(closeCodes.policyViolation, 'WK_WS_SLOW_CONSUMER');
              } else {
                dropped++;
                counts.dropped++;
              }
              return false;
            }
            // JSON's bytes are its UTF-8 text: ws sends them as a text frame as they are.
            socket.send(bytes, { binary });
            counts.sent++;
            counts.sentBytes += bytes.length;
            if (log !== undefined)
              logFrame(log, 'out', format, bytes, (renderers as Renderers).out.value(value));
            return true;
          },
        };
        live.add(peer);
        counts.opened++;
        const health = { alive: true, onTimeout: () => counts.timedOut++ };
        sockets.set(socket, health);
        socket.on('pong', () => {
          health.alive = true;
        });

        socket.on('message', (data, isBinary) => {
          const bytes = toBytes(data);
          counts.receivedBytes += bytes.length;
          let value: In;
          try {
            // JSON arrives in text frames; a binary format in binary ones. The other kind is refused.
            if (isBinary !== binary)
              throw new WirekitError('WK_DECODE_MALFORMED', `expected a ${choice.frames} frame.`);
            value = receive.decode(bytes);
          } catch (error) {
            if (log !== undefined)
              logFrame(log, 'in', format, bytes, (renderers as Renderers).in.bytes(bytes));
            const code = error instanceof WirekitError ? error.code : 'WK_DECODE_MALFORMED';
            // Reported at info level, as Fastify reports a refused request: the code, not the bytes.
            request.log.info(
              {
                wsRefused: {
                  code,
                  bytes: bytes.length,
                  action: skipInvalid ? 'skipped' : 'closed',
                },
              },
              'wirekit ws frame refused',
            );
            if (skipInvalid) {
              skipped++;
              counts.skipped++;
            } else {
              closeWith(closeCodes.invalidPayload, code);
            }
            return;
          }
          counts.received++;
          if (log !== undefined) logFrame(log, 'in', format, bytes, (renderers as Renderers).in.value(value));
          inbox.push(value);
          if (!paused && inbox.length >= maxQueuedMessages) {
            paused = true;
            socket.pause();
          }
        });
        socket.on('close', () => {
          sockets.delete(socket);
          live.delete(peer);
          inbox.end();
          closing.abort();
        });

        const connection: SocketConnection<In, Out> = {
          format,
          protocol: choice.protocol,
          request,
          messages: inbox,
          signal: closing.signal,
          send: (value) => peer.sendBytes(send.encode(value), value),
          close: (code, reason) => socket.close(code, reason),
          get bufferedBytes() {
            return socket.bufferedAmount;
          },
          get dropped() {
            return dropped;
          },
          get skipped() {
            return skipped;
          },
        };
        void Promise.resolve()
          .then(() => route.handler(connection))
          .catch((error: unknown) => {
            request.log.error({ err: error }, 'wirekit socket handler failed');
            closeWith(closeCodes.internalError, 'WK_WS_HANDLER_FAILED');
          });
      });

      return {
        stats: countsView(counts, { open: () => live.size }),
        broadcast(value) {
          // Each format in use encodes the value once, and every connection speaking it gets those bytes.
          const encoded = new Map<SocketFormat, Uint8Array>();
          let took = 0;
          for (const peer of live) {
            let bytes = encoded.get(peer.format);
            if (bytes === undefined) {
              bytes = codecsOf(peer.format).send.encode(value);
              encoded.set(peer.format, bytes);
            }
            if (peer.sendBytes(bytes, value)) took++;
          }
          return took;
        },
      };
    });
  },
  { name: 'wirekit-sockets', fastify: '5.x' },
);

function debugEnabled(log: FastifyBaseLogger): boolean {
  const withLevels = log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  return withLevels.isLevelEnabled?.('debug') ?? true;
}

function logFrame(
  log: FastifyBaseLogger,
  direction: 'in' | 'out',
  format: SocketFormat,
  bytes: Uint8Array,
  frame: string,
): void {
  const wsFrame: FrameLogEntry = { direction, format, bytes: bytes.length, frame };
  log.debug({ wsFrame }, 'wirekit ws frame');
}

function toBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  return payloadBytes(data);
}
