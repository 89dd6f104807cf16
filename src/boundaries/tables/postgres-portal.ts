/**
 * One query on one pg connection, read through a portal of the extended query protocol: Parse,
 * Bind (parameters as text, every result column in binary format), Describe, then Execute with
 * a row limit, again and again as the consumer asks for rows. The server computes only the rows
 * an Execute asks for and then suspends the portal (PortalSuspended), so a consumer that waits
 * holds the query back, and one that stops sends Sync, which ends the portal's transaction.
 *
 * pg runs the protocol's bookkeeping: this is a pg Submittable (what pg-cursor is), so pg queues
 * it on the client, dispatches the messages of the query to its handle* methods, and knows when
 * the connection is ready again. pg cannot read binary rows, though: its parser turns every field
 * into a UTF-8 string. So while the query runs, the portal stands between the socket and pg's
 * parser: it takes the socket's `data` listener (pg's parser) off, frames the messages itself,
 * keeps the DataRow messages (as ranges of the socket's own buffers, decoded later straight into
 * the column builders) and hands every other message to pg's parser, whole and in order. At
 * ReadyForQuery it puts pg's listener back. This relies on pg reading its socket through one
 * `data` listener, and on that parser holding no partial message when a query starts (true at
 * ReadyForQuery; a connection that LISTENs for notifications could break it, so the source's
 * connections are its own).
 *
 * Flow: an Execute asks for `executeRows` rows (the batch size); the next is sent once fewer than
 * that many requested rows are left unconsumed, so the server computes the next batch while the
 * consumer handles this one, and rows taken from the server stay under two batches ahead of the
 * consumer. Memory is bounded by that, since rows come only when asked for.
 */
import type { Duplex } from 'node:stream';
import type { FieldDef, Connection as PgConnection, Submittable } from 'pg';
import { WirekitError } from '../../errors/index.js';
import type { AnyColumn } from './columns.js';
import { decodeRows, type WireColumn } from './postgres-binary.js';

export interface PortalOptions {
  readonly text: string;
  /** The parameters, in PostgreSQL's text format (null for NULL). */
  readonly values: readonly (string | null)[];
  /** Rows an Execute asks for. */
  readonly executeRows: number;
  /** Asks the server to cancel the running statement (a CancelRequest on a connection of its own). */
  readonly cancel: () => Promise<void>;
}

type Queued =
  | { kind: 'rows'; readonly buffer: Buffer; at: number; rows: number }
  | { kind: 'end' }
  | { kind: 'error'; readonly error: unknown };

type DataListener = (chunk: Buffer) => void;

/**
 * The part of pg's Connection a portal writes with, as pg's serializer reads it (@types/pg types
 * `binary` and `rows` as strings; pg takes a boolean and a number).
 */
interface Connection {
  readonly stream: Duplex;
  parse(query: { name: string; text: string; types: readonly number[] }): void;
  bind(config: {
    portal: string;
    statement: string;
    binary: boolean;
    values: readonly (string | null)[];
  }): void;
  describe(message: { type: 'P' }): void;
  execute(config: { portal: string; rows: number }): void;
  flush(): void;
  sync(): void;
}

/** PostgreSQL builds a message in memory of at most 1 GB; anything longer is not PostgreSQL. */
const maxMessage = 0x40000000;
/** How long a stopped query may take to finish its Execute before it is cancelled. */
const cancelGraceMs = 100;
/** How long to wait for the server to be ready again after a stop before the connection is dropped. */
const settleTimeoutMs = 10_000;

const dataRow = 0x44; // 'D'
const noData = 0x6e; // 'n'
const readyForQuery = 0x5a; // 'Z'

export class BinaryPortal implements Submittable {
  /** The result's fields once the server has described them; rejects on an error (or no result). */
  readonly described: Promise<readonly FieldDef[]>;
  /**
   * Resolves once the connection is ready for another query (ReadyForQuery), or with the error
   * that broke it (it must then be discarded, not reused).
   */
  readonly settled: Promise<Error | undefined>;

  private resolveDescribed!: (fields: readonly FieldDef[]) => void;
  private rejectDescribed!: (error: unknown) => void;
  private resolveSettled!: (broken: Error | undefined) => void;
  private connection: Connection | undefined;
  private stream: Duplex | undefined;
  private pgListeners: DataListener[] = [];
  /** The pieces of a message that chunks cut off, joined once it is whole. */
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly queue: Queued[] = [];
  private wake: (() => void) | undefined;
  private requested = 0;
  private consumed = 0;
  /** Executes whose rows are still coming. */
  private executing = 0;
  private isDescribed = false;
  /** The server sends no more rows (CommandComplete, an error, NoData). */
  private completed = false;
  private synced = false;
  private isSettled = false;
  private closing: Promise<Error | undefined> | undefined;
  /** Why a closed portal's reads fail (the source was closed under them); undefined: they just end. */
  private closedWith: Error | undefined;
  private cancelTimer: NodeJS.Timeout | undefined;
  private cancelling: Promise<void> | undefined;

  constructor(private readonly options: PortalOptions) {
    this.described = new Promise((resolve, reject) => {
      this.resolveDescribed = resolve;
      this.rejectDescribed = reject;
    });
    this.described.catch(() => {}); // awaited by the source; never an unhandled rejection
    this.settled = new Promise((resolve) => {
      this.resolveSettled = resolve;
    });
  }

  /** Called by pg when the client is ready for this query. */
  submit(pgConnection: PgConnection): void {
    const connection = pgConnection as unknown as Connection;
    this.connection = connection;
    const stream = connection.stream;
    this.stream = stream;
    this.pgListeners = stream.rawListeners('data') as DataListener[];
    for (const listener of this.pgListeners) stream.removeListener('data', listener);
    stream.on('data', this.onData);
    connection.parse({ name: '', text: this.options.text, types: [] });
    connection.bind({ portal: '', statement: '', binary: true, values: this.options.values });
    connection.describe({ type: 'P' });
    connection.flush();
  }

  /**
   * Appends at most `room` rows to `columns`, waiting for the server when none are buffered;
   * resolves with how many were appended, 0 at the end of the result.
   */
  async fill(wires: readonly WireColumn[], columns: readonly AnyColumn[], room: number): Promise<number> {
    let appended = 0;
    for (;;) {
      if (this.closing !== undefined) {
        if (this.closedWith !== undefined) throw this.closedWith;
        return appended;
      }
      const next = this.queue[0];
      if (next === undefined) {
        if (appended > 0) return appended;
        this.requestMore();
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        continue;
      }
      if (next.kind === 'end') return appended;
      if (next.kind === 'error') throw next.error;
      const take = Math.min(room - appended, next.rows);
      next.at = decodeRows(next.buffer, next.at, take, wires, columns);
      next.rows -= take;
      if (next.rows === 0) this.queue.shift();
      appended += take;
      this.consumed += take;
      this.requestMore();
      if (appended === room) return appended;
    }
  }

  /**
   * Stops reading and frees the server side: Sync ends the portal's transaction (the server
   * finishes the Execute under way, at most one batch, and computes nothing more); an Execute that
   * is still running after a short grace (a slow statement) is cancelled. Resolves, once the
   * connection is ready again, with undefined, or with the error that means it must be discarded.
   * `error`: what reads still pending fail with (the source is closing); else they end.
   */
  close(error?: Error): Promise<Error | undefined> {
    if (this.closing !== undefined) return this.closing;
    this.closedWith = error;
    this.closing = this.stop();
    return this.closing;
  }

  private async stop(): Promise<Error | undefined> {
    this.queue.length = 0;
    this.wakeUp();
    if (this.isSettled) return this.settled;
    this.sync();
    if (this.executing > 0) {
      this.cancelTimer = setTimeout(() => {
        this.cancelling = this.options.cancel().catch(() => {});
      }, cancelGraceMs);
    }
    const timeout = setTimeout(
      () => this.settle(new Error('PostgreSQL did not answer Sync after a stopped query.')),
      settleTimeoutMs,
    );
    const broken = await this.settled;
    clearTimeout(timeout);
    // A cancel request in flight must reach the server before the connection serves another query.
    await this.cancelling;
    return broken;
  }

  // The handlers pg calls with the messages it parsed for this query.

  handleRowDescription(message: { fields: FieldDef[] }): void {
    this.isDescribed = true;
    this.resolveDescribed(message.fields);
  }

  handlePortalSuspended(): void {
    this.executing--;
  }

  handleCommandComplete(): void {
    this.executing = 0;
    this.finishRows({ kind: 'end' });
  }

  handleEmptyQuery(): void {
    this.handleCommandComplete();
  }

  handleReadyForQuery(): void {
    // Seen first in onData, which puts pg's parser back.
  }

  /** A DatabaseError from the server, or pg's own (the connection ended, a timeout). */
  handleError(error: Error): void {
    const fromServer = 'severity' in error;
    this.executing = 0;
    if (!this.isDescribed) {
      this.isDescribed = true;
      this.rejectDescribed(error);
    }
    this.finishRows({ kind: 'error', error });
    if (!fromServer) {
      // No ReadyForQuery will come: the connection is gone, or pg gave up on it.
      this.restore();
      this.settle(error);
    }
  }

  private finishRows(last: Queued): void {
    if (this.completed) return;
    this.completed = true;
    if (this.closing === undefined) this.queue.push(last);
    this.sync();
    this.wakeUp();
  }

  private requestMore(): void {
    if (this.completed || this.synced || this.closing !== undefined) return;
    if (this.requested - this.consumed >= this.options.executeRows) return;
    const connection = this.connection as Connection;
    connection.execute({ portal: '', rows: this.options.executeRows });
    connection.flush();
    this.requested += this.options.executeRows;
    this.executing++;
  }

  private sync(): void {
    if (this.synced || this.isSettled) return;
    this.synced = true;
    this.connection?.sync();
  }

  private settle(broken: Error | undefined): void {
    if (this.isSettled) return;
    this.isSettled = true;
    clearTimeout(this.cancelTimer);
    if (!this.isDescribed) {
      this.isDescribed = true;
      this.rejectDescribed(broken ?? new Error('the query ended before it was described'));
    }
    if (broken !== undefined) this.restore();
    this.resolveSettled(broken);
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Puts pg's parser back on the socket. */
  private restore(): void {
    const stream = this.stream;
    if (stream === undefined) return;
    this.stream = undefined;
    stream.removeListener('data', this.onData);
    for (const listener of this.pgListeners) stream.on('data', listener);
  }

  private forward(bytes: Buffer): void {
    if (bytes.length === 0) return;
    for (const listener of this.pgListeners) listener(bytes);
  }

  private queueRows(buffer: Buffer, at: number, rows: number): void {
    if (this.closing === undefined && !this.completed) this.queue.push({ kind: 'rows', buffer, at, rows });
  }

  /**
   * The socket's bytes while the query runs. A message a chunk cuts off is completed from the
   * next chunks (its pieces kept, joined once); the rest of a chunk is read in place.
   */
  private readonly onData = (chunk: Buffer): void => {
    let rest = chunk;
    if (this.pendingBytes > 0) {
      const before = this.pendingBytes;
      const first = this.pending[0] as Buffer;
      const head =
        first.length >= 5 ? first : Buffer.concat([...this.pending, chunk.subarray(0, 5 - before)]);
      if (head.length < 5) {
        this.pending.push(chunk);
        this.pendingBytes += chunk.length;
        return;
      }
      const whole = 1 + head.readInt32BE(1);
      if (!this.checkLength(whole - 1)) return;
      if (before + chunk.length < whole) {
        this.pending.push(chunk);
        this.pendingBytes += chunk.length;
        return;
      }
      const message = Buffer.concat([...this.pending, chunk.subarray(0, whole - before)], whole);
      this.pending.length = 0;
      this.pendingBytes = 0;
      rest = chunk.subarray(whole - before);
      if (this.scan(message)) {
        this.forward(rest);
        return;
      }
    }
    if (this.scan(rest)) return;
    this.wakeUp();
  };

  /**
   * Reads the whole messages of `buffer`: runs of DataRows are queued, everything else goes to
   * pg's parser in order, and a message cut off at the end waits in `pending`. True when the query
   * ended (ReadyForQuery) in it: the socket, and the bytes after, are pg's again.
   */
  private scan(buffer: Buffer): boolean {
    let at = 0;
    let forwardFrom = -1;
    let rowsFrom = -1;
    let rows = 0;
    while (buffer.length - at >= 5) {
      const code = buffer[at] as number;
      const length = buffer.readInt32BE(at + 1);
      if (!this.checkLength(length)) return true;
      const end = at + 1 + length;
      if (end > buffer.length) break;
      if (code === dataRow) {
        if (forwardFrom !== -1) this.forward(buffer.subarray(forwardFrom, at));
        forwardFrom = -1;
        if (rowsFrom === -1) rowsFrom = at;
        rows++;
      } else {
        if (rowsFrom !== -1) this.queueRows(buffer, rowsFrom, rows);
        rowsFrom = -1;
        rows = 0;
        if (code === readyForQuery) {
          // The query is over: what came before goes to pg with this parser in place; from
          // ReadyForQuery on, the socket is pg's again.
          if (forwardFrom !== -1) this.forward(buffer.subarray(forwardFrom, at));
          this.restore();
          this.settle(undefined);
          this.forward(buffer.subarray(at));
          return true;
        }
        if (code === noData) this.noResult();
        if (forwardFrom === -1) forwardFrom = at;
      }
      at = end;
    }
    if (rowsFrom !== -1) this.queueRows(buffer, rowsFrom, rows);
    if (forwardFrom !== -1) this.forward(buffer.subarray(forwardFrom, at));
    if (at < buffer.length) {
      this.pending.push(buffer.subarray(at));
      this.pendingBytes = buffer.length - at;
    }
    return false;
  }

  /** A message length PostgreSQL could send; else the connection is broken off (pg then fails the query). */
  private checkLength(length: number): boolean {
    if (length >= 4 && length <= maxMessage) return true;
    this.stream?.destroy(
      new WirekitError('WK_TABLE_QUERY_FAILED', `PostgreSQL: a message of length ${length} is malformed.`),
    );
    return false;
  }

  /** NoData (which pg ignores): the statement is not a query, so it has no table to stream. */
  private noResult(): void {
    this.isDescribed = true;
    this.rejectDescribed(
      new WirekitError(
        'WK_TABLE_QUERY_FAILED',
        'PostgreSQL: the statement returns no rows (it is not a query); run it with a pg client instead.',
      ),
    );
    this.completed = true;
    this.sync();
  }
}
