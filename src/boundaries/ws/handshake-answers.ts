/**
 * What a server answered to a WebSocket handshake, where the runtime lets a library see it.
 *
 * A WHATWG socket reports every failed handshake as the same 1006 close with no reason: a server
 * that is down, one that refused the upgrade and one that selected a protocol the client did not
 * offer look alike, and only the last is final (retrying gets the same answer). Node's WebSocket
 * (undici's, and the one built in from Node 22) publishes each upgrade response on
 * `diagnostics_channel` as `undici:request:headers` (undici documents the channel), with the status
 * and the `Sec-WebSocket-Protocol` the server selected. A browser shows nothing: there the answer
 * stays unknown and the client says so.
 *
 * `node:diagnostics_channel` is reached through `process.getBuiltinModule` (Node 20.16+), not an
 * import, so the client still bundles for a browser with no Node module in it.
 */

export interface HandshakeAnswer {
  /** The HTTP status of the upgrade response (101 when the server accepted it). */
  readonly status: number;
  /** The subprotocol the server selected; undefined when it selected none. */
  readonly protocol: string | undefined;
}

export interface HandshakeWatch {
  /** Watches for one attempt's answer, forgetting the previous one's. */
  begin(): void;
  /** Stops watching and returns the answer seen since `begin`, if one was. */
  end(): HandshakeAnswer | undefined;
}

/** The part of `node:diagnostics_channel` used here. */
interface DiagnosticsChannels {
  subscribe(name: string, listener: (message: unknown) => void): void;
  unsubscribe(name: string, listener: (message: unknown) => void): boolean;
}

/** undici's message: `request` as created (headers a flat array, or raw text in older versions). */
interface UpgradeResponseMessage {
  readonly request?: { origin?: unknown; path?: unknown; headers?: unknown };
  readonly response?: { statusCode?: unknown; headers?: unknown };
}

const channelName = 'undici:request:headers';

/**
 * Watches the upgrade responses to `url` for a handshake that offered exactly `offer`; a runtime
 * without diagnostics channels (a browser) gets a watch that never sees anything.
 */
export function watchHandshakes(url: string, offer: readonly string[]): HandshakeWatch {
  const blind: HandshakeWatch = { begin() {}, end: () => undefined };
  const channels = diagnosticsChannels();
  if (channels === undefined) return blind;
  // A URL that does not parse is the WebSocket's to refuse, with its own error.
  if (!URL.canParse(url)) return blind;
  const target = new URL(url);
  const origin = `${target.protocol === 'wss:' ? 'https:' : 'http:'}//${target.host}`;
  const path = `${target.pathname}${target.search}`;
  const offered = offer.join(',');
  let answer: HandshakeAnswer | undefined;
  let watching = false;

  const listener = (message: unknown) => {
    const { request, response } = message as UpgradeResponseMessage;
    if (request === undefined || response === undefined) return;
    if (String(request.origin) !== origin || request.path !== path) return;
    // Another request to the same URL (a plain GET, another client's different offer) is not ours.
    const requested = headerValue(request.headers, 'sec-websocket-protocol');
    if (requested?.replace(/\s+/g, '') !== offered) return;
    answer = {
      status: Number(response.statusCode),
      protocol: headerValue(response.headers, 'sec-websocket-protocol')?.trim() || undefined,
    };
  };

  return {
    begin() {
      answer = undefined;
      if (!watching) channels.subscribe(channelName, listener);
      watching = true;
    },
    end() {
      if (watching) channels.unsubscribe(channelName, listener);
      watching = false;
      return answer;
    },
  };
}

function diagnosticsChannels(): DiagnosticsChannels | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return runtime?.getBuiltinModule?.('node:diagnostics_channel') as DiagnosticsChannels | undefined;
  } catch {
    return undefined;
  }
}

/**
 * One header's value from undici's forms: a flat [name, value, …] array of strings or Buffers, or
 * raw `name: value\r\n` text. Repeated headers are joined with commas, as HTTP reads them.
 */
function headerValue(headers: unknown, name: string): string | undefined {
  const values: string[] = [];
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2)
      if (String(headers[i]).toLowerCase() === name) values.push(String(headers[i + 1]));
  } else if (typeof headers === 'string') {
    for (const line of headers.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === name)
        values.push(line.slice(colon + 1).trim());
    }
  }
  return values.length === 0 ? undefined : values.join(',');
}
