/**
 * PostgreSQL, on a server: the table source to grow into from DuckDB. A query runs on a
 * connection of a pg Pool, through a portal read a batch at a time in PostgreSQL's binary format
 * (postgres-portal.ts), and each row's fields go from the network buffer into the batch's Arrow
 * builders (postgres-binary.ts): pg never builds a row object or parses a value. The server
 * computes rows only as the consumer asks for batches, and a consumer that stops stops the query
 * and hands the connection back to the pool, ready for the next one.
 *
 *   const source = await postgresSource({ connectionString: 'postgres://app@db/iot' });
 *   const batches = await source.query('SELECT ts, device, value FROM readings WHERE ts >= $1', { params: [from] });
 *
 * The result columns get the same column types as DuckDB gives the same table, so that the same
 * table gives the same Arrow batches from either engine.
 */
import { connect as connectSocket } from 'node:net';
import { join } from 'node:path';
import type pg from 'pg';
import { WirekitError } from '../../errors/index.js';
import { importPeer } from '../../util/optional-peer.js';
import type { AnyColumn } from './columns.js';
import { type WireColumn, wireColumnOf } from './postgres-binary.js';
import { textParams } from './postgres-params.js';
import { BinaryPortal } from './postgres-portal.js';
import {
  type ChunkReader,
  checkBatchRows,
  defaultBatchRows,
  openTableStream,
  type ResultColumn,
  type TableQueryOptions,
  type TableSource,
} from './source.js';

export interface PostgresSourceOptions {
  /** Where to connect: `postgres://user:password@host:5432/database` (libpq's form, as pg reads it). */
  readonly connectionString?: string;
  /**
   * A pg Pool of your own (the source uses it and leaves it open on close), or the settings of
   * the pool the source makes (pg's PoolConfig: host, port, user, password, database, ssl, max...).
   */
  readonly config?: pg.PoolConfig | pg.Pool;
  /** Rows per record batch (default 65,536); also how many rows the server is asked for at a time. */
  readonly batchRows?: number;
}

export interface PostgresSource extends TableSource {
  readonly engine: 'postgres';
  /** The pool queries run on (for statements that return no table: DDL, inserts). */
  readonly pool: pg.Pool;
}

/** pg, an optional peer: loaded by postgresSource, which every query and its errors come after. */
let driver: typeof pg;

export async function postgresSource(options: PostgresSourceOptions = {}): Promise<PostgresSource> {
  const batchRows = checkBatchRows(options.batchRows ?? defaultBatchRows);
  driver = await importPeer(async () => (await import('pg')).default, 'postgresSource', 'pg');
  const given = options.config instanceof driver.Pool ? options.config : undefined;
  const pool =
    given ??
    new driver.Pool({
      ...(options.config as pg.PoolConfig | undefined),
      ...(options.connectionString === undefined ? {} : { connectionString: options.connectionString }),
    });
  // An idle connection the server drops is discarded by the pool; without a listener its error
  // would be thrown out of the event loop.
  if (given === undefined) pool.on('error', () => {});
  const open = new Set<PostgresRows>();
  return {
    engine: 'postgres',
    pool,
    query(sql, query: TableQueryOptions = {}) {
      return openTableStream(query, batchRows, (rows) => openRows(sql, query, rows));
    },
    async close() {
      const closed = new WirekitError('WK_TABLE_QUERY_FAILED', 'PostgreSQL: the table source was closed.');
      await Promise.all([...open].map((reader) => reader.close(closed)));
      if (given === undefined) await pool.end();
    },
  };

  async function openRows(sql: string, query: TableQueryOptions, rows: number): Promise<PostgresRows> {
    const values = textParams(query.params ?? []);
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw queryFailed(error);
    }
    // Errors of a checked-out client reach the portal (pg's handleError); this keeps them from
    // also being thrown as an unhandled 'error' event.
    const onClientError = () => {};
    client.on('error', onClientError);
    const release = (broken: Error | undefined) => {
      client.removeListener('error', onClientError);
      client.release(broken);
    };
    const portal = new BinaryPortal({
      text: sql,
      values,
      executeRows: rows,
      cancel: () => cancelBackend(client),
    });
    client.query(portal);
    let fields: readonly pg.FieldDef[];
    try {
      fields = await portal.described;
    } catch (error) {
      release(await portal.close());
      throw queryFailed(error);
    }
    const columns: ResultColumn[] = [];
    const wires: WireColumn[] = [];
    for (const field of fields) {
      const wire = wireColumnOf(field.dataTypeID);
      if (wire === undefined || field.format !== 'binary') {
        const broken = await portal.close();
        const type = broken === undefined ? await typeName(client, field) : `OID ${field.dataTypeID}`;
        release(broken);
        throw new WirekitError(
          'WK_TABLE_TYPE_UNSUPPORTED',
          `PostgreSQL: column ${JSON.stringify(field.name)} is of type ${type}, which the table source does not read; cast it in the query (numeric to float8 or text, json to text, uuid to text, interval to text...).`,
        );
      }
      columns.push({ name: field.name, type: wire.type });
      wires.push(wire);
    }
    const reader = new PostgresRows(columns, wires, portal, (broken) => {
      open.delete(reader);
      release(broken);
    });
    open.add(reader);
    return reader;
  }
}

/** A query's rows, read from its portal into the builders TableStream hands over. */
class PostgresRows implements ChunkReader {
  private closing: Promise<void> | undefined;

  constructor(
    readonly columns: readonly ResultColumn[],
    private readonly wires: readonly WireColumn[],
    private readonly portal: BinaryPortal,
    private readonly release: (broken: Error | undefined) => void,
  ) {}

  async fill(columns: readonly AnyColumn[], room: number): Promise<number> {
    try {
      return await this.portal.fill(this.wires, columns, room);
    } catch (error) {
      await this.close();
      throw queryFailed(error);
    }
  }

  close(error?: Error): Promise<void> {
    this.closing ??= this.portal.close(error).then(this.release);
    return this.closing;
  }
}

/** PostgreSQL's message (its SQLSTATE, detail and hint with it), or why the connection failed. */
function queryFailed(error: unknown): WirekitError {
  if (error instanceof WirekitError) return error;
  if (error instanceof driver.DatabaseError) {
    const detail = error.detail === undefined ? '' : ` ${error.detail}`;
    const hint = error.hint === undefined ? '' : ` Hint: ${error.hint}`;
    return new WirekitError(
      'WK_TABLE_QUERY_FAILED',
      `PostgreSQL: ${error.message} (SQLSTATE ${error.code}).${detail}${hint}`,
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new WirekitError('WK_TABLE_QUERY_FAILED', `PostgreSQL: ${message}`, { cause: error });
}

/** The SQL name of a column's type (with its modifier: `numeric(10,2)`), for the error that refuses it. */
async function typeName(client: pg.PoolClient, field: pg.FieldDef): Promise<string> {
  try {
    const result = await client.query<{ name: string }>('SELECT format_type($1::oid, $2::int4) AS name', [
      field.dataTypeID,
      field.dataTypeModifier,
    ]);
    return result.rows[0]?.name ?? `OID ${field.dataTypeID}`;
  } catch {
    return `OID ${field.dataTypeID}`;
  }
}

/**
 * Asks the server to cancel what `client`'s backend is running: a CancelRequest (its process id
 * and secret key) on a connection of its own, which the server closes once it has signalled the
 * backend. Resolves when that connection closes, whatever happened.
 */
function cancelBackend(client: pg.PoolClient): Promise<void> {
  const { processID, secretKey } = client as unknown as { processID: number; secretKey: number };
  const request = Buffer.alloc(16);
  request.writeInt32BE(16, 0);
  request.writeInt32BE(80877102, 4); // the cancel request code: 1234 in the high half, 5678 in the low
  request.writeInt32BE(processID, 8);
  request.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    const { host, port } = client;
    const socket = host.startsWith('/')
      ? connectSocket(join(host, `.s.PGSQL.${port}`))
      : connectSocket(port, host);
    socket.setTimeout(5_000, () => socket.destroy());
    socket.once('connect', () => socket.end(request));
    socket.once('error', () => {}); // 'close' follows
    socket.once('close', () => resolve());
  });
}
