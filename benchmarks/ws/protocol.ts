/**
 * The messages the WebSocket benchmark's processes exchange over their IPC channels: the runner
 * (main.ts) steers one server process (server.ts) and one client process (clients.ts), and reads
 * counters from both at the edges of each measured window.
 */
import type { SocketFormat } from 'wirekit-ts/ws';

/** What a case sends: a wirekit format, or `native` (JSON.stringify as a text frame, no wirekit). */
export type BenchFormat = SocketFormat | 'native';

export type ServerCommand =
  /** Broadcast `perClient` ticks a second to every open connection (0 stops). */
  | { readonly type: 'rate'; readonly perClient: number }
  /** Ends the current window: its counters since the previous mark, and a new window begins. */
  | { readonly type: 'mark' };

export interface ServerWindow {
  readonly type: 'window';
  readonly wallMs: number;
  /** process.cpuUsage() over the window, user + system, µs. */
  readonly cpuUs: number;
  /** Messages handed to the sockets (one per connection per tick). */
  readonly sent: number;
  /** Messages the route dropped because a connection's send queue was full. */
  readonly dropped: number;
  /** Ticks the pacer was too late for and skipped (it catches up at most 50 ms of backlog). */
  readonly missedTicks: number;
  readonly open: number;
  /** Event-loop delay over the window, ms (1 ms resolution: ~1.1 ms is an idle loop). */
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
}

export type ServerReply =
  | { readonly type: 'ready'; readonly port: number }
  | { readonly type: 'rate'; readonly perClient: number }
  | ServerWindow;

export type ClientCommand =
  | {
      readonly type: 'connect';
      readonly url: string;
      /** The subprotocol to offer, or none (plain JSON in text frames). */
      readonly protocol: string | undefined;
      readonly count: number;
    }
  | { readonly type: 'mark' };

export interface ClientWindow {
  readonly type: 'window';
  readonly received: number;
  /** Payload bytes received (frame headers not counted: 2 bytes each below 126 bytes). */
  readonly bytes: number;
  readonly closed: number;
  /** The client process's own CPU over the window, µs: near the wall time means it is the limit. */
  readonly cpuUs: number;
}

export type ClientReply =
  | { readonly type: 'connected'; readonly open: number; readonly protocol: string }
  | { readonly type: 'failed'; readonly message: string }
  | ClientWindow;
