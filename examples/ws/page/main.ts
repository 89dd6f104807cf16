/**
 * The example's page: one wirekit socket client per format, all connected at once to `/ws`, each
 * decoding its ticks with the format's codec in the browser. The table shows what each format
 * costs on the wire (payload bytes per message, from the client's own counts) and the last tick it
 * decoded, so the binary formats are as readable here as JSON. "Echo" sends each client's last
 * tick back and shows the round trip.
 *
 * For automation the page keeps `window.wirekitTicks` up to date: per format, its counts, bytes per
 * message, the last tick as JSON and the echoes seen.
 */
import { avroFormat } from 'wirekit-ts/avro';
import { cborFormat } from 'wirekit-ts/cbor';
import { jsonFormat } from 'wirekit-ts/json';
import { msgpackFormat } from 'wirekit-ts/msgpack';
import { subprotocolPrefix } from 'wirekit-ts/negotiate';
import { protobufFormat } from 'wirekit-ts/protobuf';
import { createSocketClient, type FormatEntry, type SocketClient } from 'wirekit-ts/ws/client';
// The example's tick (the bench's fixture, not part of the package), from the repository's build.
import { Tick } from '../tick.js';

interface FormatView {
  protocol: string;
  state: string;
  received: number;
  bytesPerMessage: number;
  /** The last tick, as the schema's JSON codec writes it. */
  last: string;
  echoes: number;
  echoMs: number | undefined;
  error: string | undefined;
}

declare global {
  interface Window {
    wirekitTicks: Record<string, FormatView>;
  }
}

const entries: readonly FormatEntry[] = [jsonFormat, msgpackFormat, cborFormat, protobufFormat, avroFormat];
const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const json = jsonFormat.create({ schema: Tick });
const decoder = new TextDecoder();
function tickJson(tick: Tick): string {
  return decoder.decode(json.encode(tick));
}

const views: Record<string, FormatView> = {};
window.wirekitTicks = views;
const clients = new Map<string, SocketClient<Tick, Tick>>();
const lastTicks = new Map<string, Tick>();
/** The tick each client sent back, as JSON, and when: the echo is the message equal to it. */
const echoes = new Map<string, { readonly text: string; readonly at: number }>();

const table = document.getElementById('formats') as HTMLTableElement;
const cells = new Map<
  string,
  Record<'state' | 'received' | 'bytes' | 'ratio' | 'echo' | 'last', HTMLElement>
>();

for (const entry of entries) {
  const name = entry.name;
  const view: FormatView = {
    protocol: subprotocolPrefix + name,
    state: 'connecting',
    received: 0,
    bytesPerMessage: 0,
    last: '',
    echoes: 0,
    echoMs: undefined,
    error: undefined,
  };
  views[name] = view;
  const row = table.insertRow();
  const cell = (className: string) => {
    const td = row.insertCell();
    td.className = className;
    return td;
  };
  row.insertCell().textContent = view.protocol;
  cells.set(name, {
    state: cell('state'),
    received: cell('num'),
    bytes: cell('num'),
    ratio: cell('num'),
    echo: cell('num'),
    last: cell('last'),
  });

  // Offered alone, so each client speaks its own format whatever the server would prefer.
  const client = createSocketClient({ url, receive: Tick, send: Tick, codecs: [entry] });
  clients.set(name, client);
  void (async () => {
    try {
      for await (const tick of client.messages) {
        lastTicks.set(name, tick);
        // Every tick the server makes has a new sequence number: only the echo equals the one sent.
        const echo = echoes.get(name);
        if (echo !== undefined && tickJson(tick) === echo.text) {
          view.echoes++;
          view.echoMs = performance.now() - echo.at;
          echoes.delete(name);
        }
      }
    } catch (error) {
      view.error = `${(error as { code?: string }).code ?? ''} ${String((error as Error).message ?? error)}`;
    }
  })();
}

(document.getElementById('echo') as HTMLButtonElement).onclick = () => {
  for (const [name, client] of clients) {
    const tick = lastTicks.get(name);
    if (tick === undefined || client.state !== 'open') continue;
    echoes.set(name, { text: tickJson(tick), at: performance.now() });
    client.send(tick);
  }
};

// Drawn ten times a second: a DOM update per tick (500 a second over five clients) would cost more than the ticks.
setInterval(() => {
  const jsonBytes = bytesPerMessage('json');
  for (const [name, client] of clients) {
    const view = views[name] as FormatView;
    view.state = view.error === undefined ? client.state : 'failed';
    view.received = client.stats.received;
    view.bytesPerMessage = bytesPerMessage(name);
    const tick = lastTicks.get(name);
    if (tick !== undefined) view.last = tickJson(tick);
    const shown = cells.get(name);
    if (shown === undefined) continue;
    shown.state.textContent = view.error ?? view.state;
    shown.received.textContent = String(view.received);
    shown.bytes.textContent = view.bytesPerMessage.toFixed(1);
    shown.ratio.textContent = jsonBytes > 0 ? (view.bytesPerMessage / jsonBytes).toFixed(2) : '';
    shown.echo.textContent = view.echoMs === undefined ? '' : `${view.echoMs.toFixed(1)} ms`;
    shown.last.textContent = view.last;
  }
}, 100);

function bytesPerMessage(name: string): number {
  const stats = clients.get(name)?.stats;
  return stats === undefined || stats.received === 0 ? 0 : stats.receivedBytes / stats.received;
}
