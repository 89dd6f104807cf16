/**
 * The socket client's `WebSocket` option takes every WebSocket class a user has at hand, without
 * a cast under strict: undici's (Node 20), the DOM's (browsers, and Node 22's global, which is
 * undici's), and the `ws` package's, whose events are classes of its own.
 */
import { WebSocket as UndiciWebSocket } from 'undici';
import { describe, expectTypeOf, test } from 'vitest';
import WsWebSocket from 'ws';
import {
  createSocketClient,
  type WebSocketConstructor,
  type WebSocketLike,
} from '../../../src/boundaries/ws/client-entry.js';
import { jsonFormat } from '../../../src/codecs/json/index.js';
import { t } from '../../../src/index.js';

const Tick = t.object('Tick', { symbol: t.string(), price: t.float64() });
const options = { url: 'ws://127.0.0.1:3000/ws', receive: Tick, send: Tick, codecs: [jsonFormat] };

describe('the WebSocket option', () => {
  test("accepts undici's class, the DOM's and ws's, as they are", () => {
    expectTypeOf(UndiciWebSocket).toExtend<WebSocketConstructor>();
    expectTypeOf(globalThis.WebSocket).toExtend<WebSocketConstructor>();
    expectTypeOf(WsWebSocket).toExtend<WebSocketConstructor>();
    expectTypeOf<UndiciWebSocket>().toExtend<WebSocketLike>();
    expectTypeOf<WsWebSocket>().toExtend<WebSocketLike>();
    createSocketClient({ ...options, WebSocket: UndiciWebSocket });
    createSocketClient({ ...options, WebSocket: globalThis.WebSocket });
    createSocketClient({ ...options, WebSocket: WsWebSocket });
  });

  test('refuses a class that is no WebSocket', () => {
    expectTypeOf(Map).not.toExtend<WebSocketConstructor>();
    // @ts-expect-error: a Map is not a WebSocket
    createSocketClient({ ...options, WebSocket: Map });
  });
});
