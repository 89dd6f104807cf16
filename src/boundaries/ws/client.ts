/**
 * A typed WebSocket client for wirekit socket routes, over the WHATWG `WebSocket` (a browser's,
 * Node 22's global, or undici's on Node 20). It offers the formats it is given as subprotocols, in
 * its order of preference, speaks whichever the server selects, and reconnects with backoff when
 * the connection drops; the messages of every connection in turn come through one async iterable.
 *
 *   import { WebSocket } from 'undici'; // Node 20; a browser or Node 22 has it built in
 *   const prices = createSocketClient({ url: 'ws://prices.internal/ws', receive: Tick, send: Order,
 *     codecs: [msgpackFormat, jsonFormat], WebSocket });
 *   for await (const tick of prices.messages) plot(tick);
 *
 * Memory stays bounded: messages received and not yet read past `maxBufferedMessages` are dropped
 * and counted (a WHATWG socket cannot be paused), and so are sends once the socket holds
 * `maxQueuedBytes` unsent; sends made while (re)connecting wait, up to `maxPendingSends`.
 *
 * Only web APIs are used, so the module bundles for a browser; like the HTTP client, it loads only
 * the formats it is handed.
 */
import type { Codec } from '../../codecs/core/codec.js';
import type { FormatEntry } from '../../codecs/core/format-entry.js';
import type { DecodeLimits } from '../../codecs/core/limits.js';
import { WirekitError } from '../../errors/index.js';
import { formatOfSubprotocol, subprotocolPrefix } from '../../negotiate/subprotocol.js';
import { assert, type Infer, type Schema } from '../../schema/index.js';
import {
  closeCodes,
  countsView,
  frameKindOf,
  isSocketFormat,
  messageCounts,
  payloadBytes,
  positiveOption,
  type SocketFormat,
} from './frames.js';
import { Inbox } from './inbox.js';

/** The part of the WHATWG WebSocket the client uses; a browser's, Node 22's and undici's all fit. */
export interface WebSocketLike {
  readonly protocol: string;
  readonly readyState: number;
  readonly bufferedAmount: number;
  binaryType: string;
  send(data: string | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: never) => void): void;
}

export type WebSocketConstructor = new (url: string, protocols?: string[]) => WebSocketLike;

export interface ReconnectOptions {
  /** The wait before the first retry, doubled on each failed one (default 250 ms). */
  readonly initialDelayMs?: number;
  /** The longest wait between tries (default 30 s). */
  readonly maxDelayMs?: number;
  /** Failed tries in a row before the client gives up and ends its messages (default: never). */
  readonly maxAttempts?: number;
}

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
      readonly code: number;
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

const mebibyte = 1024 * 1024;

export function createSocketClient<R extends Schema, S extends Schema>(
  options: SocketClientOptions<R, S>,
): SocketClient<Infer<R>, Infer<S>> {
  type In = Infer<R>;
  type Out = Infer<S>;
  const Socket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (Socket === undefined)
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      "this runtime has no global WebSocket (Node 20): pass one, e.g. `WebSocket` from 'undici'.",
    );
  const entries = new Map<SocketFormat, FormatEntry>();
  for (const entry of options.codecs) if (isSocketFormat(entry.name)) entries.set(entry.name, entry);
  if (entries.size === 0)
    throw new WirekitError(
      'WK_WS_PROTOCOL',
      'the client was given no format a socket speaks (json, msgpack, cbor, protobuf, avro).',
    );
  const protocols = [...entries.keys()].map((name) => subprotocolPrefix + name);
  const url = options.url.replace(/^http/, 'ws');
  const reconnect = options.reconnect === false ? undefined : backoffOf(options.reconnect ?? {});
  const maxBuffered = positiveOption('maxBufferedMessages', options.maxBufferedMessages ?? 10_000);
  const maxQueuedBytes = positiveOption('maxQueuedBytes', options.maxQueuedBytes ?? mebibyte);
  const maxFrameBytes = positiveOption('maxFrameBytes', options.maxFrameBytes ?? mebibyte);
  const maxPending = positiveOption('maxPendingSends', options.maxPendingSends ?? 1000);

  const codecs = new Map<SocketFormat, { receive: Codec<In>; send: Codec<Out> }>();
  const codecsOf = (format: SocketFormat) => {
    let pair = codecs.get(format);
    if (pair === undefined) {
      const entry = entries.get(format) as FormatEntry;
      const limits = options.limits;
      pair = {
        receive: entry.create({
          schema: options.receive,
          validate: true,
          ...(limits && { limits }),
        }) as Codec<In>,
        send: entry.create({ schema: options.send, validate: true }) as Codec<Out>,
      };
      codecs.set(format, pair);
    }
    return pair;
  };

  const inbox = new Inbox<In>();
  const counts = { connects: 0, ...messageCounts() };
  const pending: Out[] = [];
  const waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let state: SocketClient<In, Out>['state'] = 'connecting';
  let socket: WebSocketLike | undefined;
  let format: SocketFormat | undefined;
  let failedTries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set when this side ends the client: the close that follows is no reason to reconnect. */
  let ending: { error: unknown } | undefined;

  const finish = (error?: unknown) => {
    state = 'closed';
    clearTimeout(retryTimer);
    pending.length = 0;
    inbox.end(error);
    const failure = error ?? new WirekitError('WK_WS_CLOSED', 'the socket client is closed.');
    for (const waiter of waiting.splice(0)) waiter.reject(failure);
  };

  /** Encodes and writes one value on the open socket: JSON as a text frame, the rest as binary. */
  const write = (open: WebSocketLike, active: SocketFormat, value: Out): boolean => {
    const bytes = codecsOf(active).send.encode(value);
    if (open.bufferedAmount + bytes.length > maxQueuedBytes) {
      counts.dropped++;
      return false;
    }
    open.send(frameKindOf(active) === 'text' ? textOf(bytes) : bytes);
    counts.sent++;
    counts.sentBytes += bytes.length;
    return true;
  };

  const connect = () => {
    const current = new Socket(url, protocols);
    socket = current;
    current.binaryType = 'arraybuffer';
    let active: SocketFormat | undefined;

    current.addEventListener('open', () => {
      const protocol = current.protocol;
      const name = formatOfSubprotocol(protocol) ?? '';
      if (!isSocketFormat(name) || !entries.has(name)) {
        // RFC 6455 §4.1: a client fails a connection whose protocol it did not offer; retrying gets the same.
        ending = {
          error: new WirekitError(
            'WK_WS_PROTOCOL',
            `the server selected "${protocol}", which this client did not offer.`,
          ),
        };
        current.close(closeCodes.normal, 'WK_WS_PROTOCOL');
        return;
      }
      active = name;
      format = name;
      state = 'open';
      failedTries = 0;
      counts.connects++;
      options.onEvent?.({ type: 'open', format: name, protocol });
      for (const value of pending.splice(0)) write(current, name, value);
      for (const waiter of waiting.splice(0)) waiter.resolve();
    });

    current.addEventListener('message', (event: { data: string | ArrayBuffer }) => {
      if (active === undefined || current !== socket) return;
      const text = typeof event.data === 'string';
      const bytes = payloadBytes(event.data);
      counts.receivedBytes += bytes.length;
      let value: In;
      try {
        if (bytes.length > maxFrameBytes)
          throw new WirekitError(
            'WK_LIMIT_INPUT',
            `a frame of ${bytes.length} bytes; maxFrameBytes is ${maxFrameBytes}.`,
          );
        if (text !== (frameKindOf(active) === 'text'))
          throw new WirekitError('WK_DECODE_MALFORMED', `expected a ${frameKindOf(active)} frame.`);
        value = codecsOf(active).receive.decode(bytes);
      } catch (error) {
        const failure =
          error instanceof WirekitError ? error : new WirekitError('WK_DECODE_MALFORMED', String(error));
        if (options.onInvalid === 'skip') {
          counts.skipped++;
        } else {
          ending = { error: failure };
          const tooBig = failure.code === 'WK_LIMIT_INPUT';
          current.close(tooBig ? closeCodes.clientTooBig : closeCodes.clientInvalidPayload, failure.code);
        }
        return;
      }
      counts.received++;
      if (inbox.length >= maxBuffered) counts.dropped++;
      else inbox.push(value);
    });

    current.addEventListener('close', (event: { code: number; reason: string }) => {
      if (current !== socket) return;
      socket = undefined;
      if (ending !== undefined) {
        options.onEvent?.({ type: 'close', code: event.code, reason: event.reason, retryInMs: undefined });
        finish(ending.error);
        return;
      }
      const wasOpen = active !== undefined;
      const delay = reconnect?.delayAfter(failedTries);
      if (delay === undefined) {
        options.onEvent?.({ type: 'close', code: event.code, reason: event.reason, retryInMs: undefined });
        // Without reconnecting, a close the server meant ends the messages; anything else is an error.
        const clean = wasOpen && event.code === closeCodes.normal;
        finish(
          clean
            ? undefined
            : new WirekitError(
                'WK_WS_CLOSED',
                `the connection to ${url} closed (${event.code}${event.reason ? ` ${event.reason}` : ''})` +
                  (reconnect === undefined ? '' : ` and ${failedTries + 1} tries in a row failed`) +
                  // WHATWG sockets say no more than 1006 for a failed handshake: say what it may be.
                  (wasOpen
                    ? '.'
                    : `, before a connection opened: the server is down or refused the upgrade, or it selected none of the protocols offered (${protocols.join(', ')}).`),
              ),
        );
        return;
      }
      failedTries = wasOpen ? 0 : failedTries + 1;
      state = 'reconnecting';
      options.onEvent?.({ type: 'close', code: event.code, reason: event.reason, retryInMs: delay });
      retryTimer = setTimeout(connect, delay);
    });

    // An error is always followed by a close event, which decides what happens next.
    current.addEventListener('error', () => {});
  };

  connect();

  return {
    get state() {
      return state;
    },
    get format() {
      return format;
    },
    messages: inbox,
    opened() {
      if (state === 'open') return Promise.resolve();
      if (state === 'closed')
        return Promise.reject(new WirekitError('WK_WS_CLOSED', 'the socket client is closed.'));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    send(value) {
      if (state === 'closed') throw new WirekitError('WK_WS_CLOSED', 'the socket client is closed.');
      if (state === 'open' && socket !== undefined && format !== undefined)
        return write(socket, format, value);
      // Not connected: check the value now, so a bad one throws here, and send it once connected.
      assert(options.send, value);
      if (pending.length >= maxPending) {
        counts.dropped++;
        return false;
      }
      pending.push(value);
      return true;
    },
    close(code = closeCodes.normal, reason) {
      if (state === 'closed') return;
      if (socket === undefined) {
        finish();
        return;
      }
      ending = { error: undefined };
      socket.close(code, reason);
    },
    stats: countsView(counts),
  };
}

/** Exponential backoff with jitter: each wait is between half and all of the doubled delay. */
function backoffOf(options: ReconnectOptions) {
  const initial = positiveOption('reconnect.initialDelayMs', options.initialDelayMs ?? 250);
  const max = positiveOption('reconnect.maxDelayMs', options.maxDelayMs ?? 30_000);
  const maxAttempts = options.maxAttempts ?? Number.POSITIVE_INFINITY;
  if (!(maxAttempts >= 0))
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `reconnect.maxAttempts must be at least 0, got ${maxAttempts}.`,
    );
  return {
    /** The wait before the next try after `failed` failed tries in a row, or undefined to give up. */
    delayAfter(failed: number): number | undefined {
      if (failed >= maxAttempts) return undefined;
      const ceiling = Math.min(max, initial * 2 ** Math.min(failed, 30));
      return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
    },
  };
}

const decoder = new TextDecoder();
function textOf(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
