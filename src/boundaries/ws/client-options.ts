/**
 * What the socket client is given and what it gives back: its options, events, stats and handle.
 * The client itself is client.ts; these live apart so its options can be read in one place.
 */
import type { FormatEntry } from '../../codecs/core/format-entry.js';
import type { DecodeLimits } from '../../codecs/core/limits.js';
import type { Schema } from '../../schema/index.js';
import type { SocketFormat } from './frames.js';
import type { ReconnectOptions } from './reconnect.js';

export type { ReconnectOptions } from './reconnect.js';

/**
 * What the client reads of every event: the rest (a message's `data`, a close's `code` and
 * `reason`) it reads by the event's type. An event type this small is what lets every WebSocket
 * fit without a cast: the DOM's and undici's pass their own `Event` classes, the `ws` package its
 * own, and a listener typed for any one of them would refuse the others under strict.
 */
interface SocketEvent {
  readonly type: string;
}

/**
 * The part of the WHATWG WebSocket the client uses: a browser's, Node 22's global, undici's and
 * the `ws` package's all fit (test/boundaries/ws/websocket-constructors.test-d.ts).
 */
export interface WebSocketLike {
  readonly protocol: string;
  readonly readyState: number;
  readonly bufferedAmount: number;
  binaryType: string;
  send(data: string | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: 'open' | 'message' | 'close' | 'error',
    listener: (event: SocketEvent) => void,
  ): void;
}

export type WebSocketConstructor = new (url: string, protocols?: string[]) => WebSocketLike;

export interface SocketClientOptions<R extends Schema, S extends Schema> {
  /** ws:// or wss:// (http(s):// is taken to mean the same). */
  readonly url: string;
  /** What the server sends. */
  readonly receive: R;
  /** What this client sends. */
  readonly send: S;
  /** The formats to offer, most preferred first (`msgpackFormat` from `wirekit-ts/msgpack`, …). */
  readonly codecs: readonly FormatEntry[];
  /** Defaults to `globalThis.WebSocket`; on Node 20 pass undici's. */
  readonly WebSocket?: WebSocketConstructor;
  /** Reconnect after the connection drops (default: on, with the defaults); false: end with it. */
  readonly reconnect?: false | ReconnectOptions;
  /**
   * How long a handshake may take before the try is given up and counts as failed (default 10 s):
   * a server that accepts the TCP connection and never answers the upgrade does not hold the
   * client in 'connecting' for ever.
   */
  readonly handshakeTimeoutMs?: number;
  /** A frame that does not decode: close and end the messages with its error (default), or count it and go on. */
  readonly onInvalid?: 'close' | 'skip';
  /**
   * The largest frame decoded, in bytes (default 1 MiB, as the server's). A WHATWG socket cannot
   * refuse a frame before it has arrived, but a larger one is not decoded: it closes with 4009
   * `WK_LIMIT_INPUT` (or is skipped, by `onInvalid`).
   */
  readonly maxFrameBytes?: number;
  /** Messages received and not yet read before new ones are dropped (default 10,000). */
  readonly maxBufferedMessages?: number;
  /**
   * Payload bytes of the messages received and not yet read before new ones are dropped (default
   * 16 MiB, or `maxFrameBytes` if that is larger; at least `maxFrameBytes`).
   */
  readonly maxBufferedBytes?: number;
  /** Bytes the socket may hold unsent before a send is dropped (default 1 MiB). */
  readonly maxQueuedBytes?: number;
  /** Sends made while not connected that wait for the connection (default 1,000); more are dropped. */
  readonly maxPendingSends?: number;
  /** Decode limits for what the server sends. */
  readonly limits?: Partial<DecodeLimits>;
  /** Told of each connection opened and closed, for logs and metrics. */
  readonly onEvent?: (event: SocketClientEvent) => void;
}

export type SocketClientEvent =
  | { readonly type: 'open'; readonly format: SocketFormat; readonly protocol: string }
  | {
      readonly type: 'close';
      /** The close code (1006 for a handshake that failed or timed out). */
      readonly code: number;
      /** The peer's close reason, or why the client gave the try up (`handshake timed out after …`). */
      readonly reason: string;
      /** The wait before the next try, or undefined when the client will not try again. */
      readonly retryInMs: number | undefined;
    };

export interface SocketClientStats {
  /** Connections opened, the first one included. */
  readonly connects: number;
  readonly received: number;
  readonly sent: number;
  /** Payload bytes of the frames received, refused ones included (JSON's as UTF-8): bytes per message is this over `received`. */
  readonly receivedBytes: number;
  /** Payload bytes of the messages sent. */
  readonly sentBytes: number;
  /** Messages dropped: received with the reader too far behind, or sent with the socket full. */
  readonly dropped: number;
  /** Frames refused and skipped (`onInvalid: 'skip'`). */
  readonly skipped: number;
}

export interface SocketClient<In, Out> {
  /** 'connecting' until the first open, 'reconnecting' between connections, 'closed' at the end. */
  readonly state: 'connecting' | 'open' | 'reconnecting' | 'closed';
  /** The format of the connection open now (or last open). */
  readonly format: SocketFormat | undefined;
  /** The messages of every connection in turn, until the client closes or gives up. One reader at a time. */
  readonly messages: AsyncIterable<In>;
  /** Resolves once a connection is open; rejects when the client is closed first. */
  opened(): Promise<void>;
  /**
   * Sends a value (checked against the schema, so a bad one throws here). While reconnecting it
   * waits for the connection; false when it was dropped. Throws WK_WS_CLOSED once closed.
   */
  send(value: Out): boolean;
  /** Closes for good: no reconnect, and the messages end after those already received. */
  close(code?: number, reason?: string): void;
  readonly stats: SocketClientStats;
}
