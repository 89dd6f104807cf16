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
 * Memory stays bounded: messages received and not yet read past `maxBufferedMessages` or
 * `maxBufferedBytes` are dropped and counted (a WHATWG socket cannot be paused), and so are sends
 * once the socket holds `maxQueuedBytes` unsent; sends made while (re)connecting wait, up to
 * `maxPendingSends`. Time is bounded too: a handshake has `handshakeTimeoutMs`, and a connection
 * that drops soon after it opened counts as a failed try (reconnect.ts).
 *
 * Only web APIs are used, so the module bundles for a browser; like the HTTP client, it loads only
 * the formats it is handed.
 */
import type { Codec } from '../../codecs/core/codec.js';
import type { FormatEntry } from '../../codecs/core/format-entry.js';
import { WirekitError } from '../../errors/index.js';
import { formatOfSubprotocol, subprotocolPrefix } from '../../negotiate/subprotocol.js';
import { assert, type Infer, type Schema } from '../../schema/index.js';
import { closeFailure, protocolFailure } from './client-failures.js';
import type {
  SocketClient,
  SocketClientOptions,
  WebSocketConstructor,
  WebSocketLike,
} from './client-options.js';
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
import { watchHandshakes } from './handshake-answers.js';
import { Inbox } from './inbox.js';
import { reconnectPolicy } from './reconnect.js';

export type {
  ReconnectOptions,
  SocketClient,
  SocketClientEvent,
  SocketClientOptions,
  SocketClientStats,
  WebSocketConstructor,
  WebSocketLike,
} from './client-options.js';

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
  const reconnect = options.reconnect === false ? undefined : reconnectPolicy(options.reconnect ?? {});
  const handshakeTimeoutMs = positiveOption('handshakeTimeoutMs', options.handshakeTimeoutMs ?? 10_000);
  const maxBuffered = positiveOption('maxBufferedMessages', options.maxBufferedMessages ?? 10_000);
  const maxQueuedBytes = positiveOption('maxQueuedBytes', options.maxQueuedBytes ?? mebibyte);
  const maxFrameBytes = positiveOption('maxFrameBytes', options.maxFrameBytes ?? mebibyte);
  const maxBufferedBytes = positiveOption(
    'maxBufferedBytes',
    options.maxBufferedBytes ?? Math.max(16 * mebibyte, maxFrameBytes),
  );
  // A frame the client accepts must fit an empty queue, or it would be dropped however fast one reads.
  if (maxBufferedBytes < maxFrameBytes)
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `maxBufferedBytes (${maxBufferedBytes}) must be at least maxFrameBytes (${maxFrameBytes}).`,
    );
  const maxPending = positiveOption('maxPendingSends', options.maxPendingSends ?? 1000);
  const handshakes = watchHandshakes(url, protocols);

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
  /** Retries made since the last connection that stayed open `stableAfterMs` (or since the start). */
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set when this side ends the client: the close that follows is no reason to reconnect. */
  let ending: { error: unknown } | undefined;

  const finish = (error?: unknown) => {
    state = 'closed';
    clearTimeout(retryTimer);
    handshakes.end();
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

  /**
   * What follows the end of one try: the end of the client (closed by this side, a protocol the
   * server will select again, no retries left), or the next try after the backoff's delay.
   */
  const afterClose = (code: number, reason: string, openedFor: number | undefined, timedOut: boolean) => {
    const answer = handshakes.end();
    const report = (retryInMs: number | undefined) =>
      options.onEvent?.({ type: 'close', code, reason, retryInMs });
    if (ending !== undefined) {
      report(undefined);
      finish(ending.error);
      return;
    }
    // The server answered the upgrade with a protocol this client did not offer: retrying gets the same.
    const refused = openedFor === undefined ? protocolFailure(answer, protocols) : undefined;
    if (refused !== undefined) {
      report(undefined);
      finish(refused);
      return;
    }
    if (openedFor !== undefined && reconnect !== undefined && openedFor >= reconnect.stableAfterMs)
      retries = 0;
    const delay = reconnect?.delayBefore(retries);
    report(delay);
    if (delay === undefined) {
      // Without reconnecting, a close the server meant ends the messages; anything else is an error.
      const clean = reconnect === undefined && openedFor !== undefined && code === closeCodes.normal;
      if (clean) finish();
      else
        finish(
          closeFailure({ url, code, reason, openedFor, timedOut, answer, protocols, retries, reconnect }),
        );
      return;
    }
    retries++;
    state = 'reconnecting';
    retryTimer = setTimeout(connect, delay);
  };

  const connect = () => {
    const current = new Socket(url, protocols);
    socket = current;
    current.binaryType = 'arraybuffer';
    handshakes.begin();
    let active: SocketFormat | undefined;
    let openedAt = 0;
    const openedFor = () => (active === undefined ? undefined : performance.now() - openedAt);

    // A server that takes the TCP connection and never answers the upgrade: give the try up.
    const handshakeTimer = setTimeout(() => {
      if (current !== socket) return;
      socket = undefined;
      current.close(); // fails the connection; its close event, whenever it comes, is ignored
      afterClose(1006, `handshake timed out after ${handshakeTimeoutMs} ms`, undefined, true);
    }, handshakeTimeoutMs);

    current.addEventListener('open', () => {
      clearTimeout(handshakeTimer);
      if (current !== socket) return;
      handshakes.end();
      const protocol = current.protocol;
      const name = formatOfSubprotocol(protocol) ?? '';
      if (!isSocketFormat(name) || !entries.has(name)) {
        // RFC 6455 §4.1: a client fails a connection whose protocol it did not offer; retrying gets
        // the same. (undici and browsers fail it themselves, before this: see afterClose.)
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
      openedAt = performance.now();
      state = 'open';
      counts.connects++;
      options.onEvent?.({ type: 'open', format: name, protocol });
      for (const value of pending.splice(0)) write(current, name, value);
      for (const waiter of waiting.splice(0)) waiter.resolve();
    });

    current.addEventListener('message', (event) => {
      if (active === undefined || current !== socket) return;
      const { data } = event as typeof event & { readonly data: string | ArrayBuffer };
      const text = typeof data === 'string';
      const bytes = payloadBytes(data);
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
      // The reader is behind: held messages are bounded by count and by bytes, newer ones dropped.
      if (inbox.length >= maxBuffered || inbox.bytes + bytes.length > maxBufferedBytes) counts.dropped++;
      else inbox.push(value, bytes.length);
    });

    current.addEventListener('close', (event) => {
      clearTimeout(handshakeTimer);
      if (current !== socket) return;
      socket = undefined;
      const { code, reason } = event as typeof event & { readonly code: number; readonly reason: string };
      afterClose(code, reason, openedFor(), false);
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

const decoder = new TextDecoder();
function textOf(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
