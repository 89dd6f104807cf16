/**
 * A real PostgreSQL server for the tests of the PostgreSQL table source: a throwaway cluster in a
 * temporary directory, on a free port of 127.0.0.1, made with Debian's server binaries
 * (`apt-get install postgresql`). The server refuses to run as root, so as root (CI, this
 * machine) initdb and pg_ctl run as the `postgres` user that the package creates, in a directory
 * that user owns; as anyone else they run directly.
 *
 * Like the other external tools (tools.ts), a machine without the binaries skips loudly, and CI
 * (CI=true) fails instead, because .ci/run installs them.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, hasCommand } from './tools.js';

/** The newest server installed under Debian's layout (/usr/lib/postgresql/VERSION/bin), 15 preferred. */
const postgresBin = (() => {
  const root = '/usr/lib/postgresql';
  const preferred = join(root, '15', 'bin');
  if (existsSync(join(preferred, 'initdb'))) return preferred;
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest === undefined ? preferred : join(root, newest, 'bin');
})();

const asRoot = process.getuid?.() === 0;

/** True when a cluster can be started here (see hasCommand: a loud skip, or a failure under CI). */
export function hasPostgres(): boolean {
  if (!hasCommand(join(postgresBin, 'initdb'), ['--version'])) return false;
  if (!hasCommand(join(postgresBin, 'pg_ctl'), ['--version'])) return false;
  // As root the server must run as another user: Debian's package creates `postgres`.
  return !asRoot || hasCommand('runuser', ['-u', 'postgres', '--', 'true']);
}

export interface PostgresServer {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication: no password). */
  readonly connectionString: string;
  /** Milliseconds from nothing to a server that accepts connections (initdb + start). */
  readonly startMs: number;
  /** Stops the server (fast shutdown: sessions are disconnected) and removes its directory. */
  stop(): void;
}

/** Runs one of the server's programs, as `postgres` when we are root. */
function run(program: string, args: readonly string[]): void {
  const path = join(postgresBin, program);
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
  execFileSync(command, argv, { stdio: 'pipe', timeout: 120_000 });
}

/**
 * Initialises and starts a cluster. Durability is off (fsync, full-page writes, synchronous
 * commit): the cluster lives for one test file, and the tests load millions of rows into it.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'wirekit-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const { uid, gid } = userIds('postgres');
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const port = await freePort();
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--locale=C']);
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c full_page_writes=off',
      '-c synchronous_commit=off',
    ].join(' ');
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']);
  } catch (error) {
    const log = join(dir, 'server.log');
    const detail = existsSync(log) ? `\n${readFileSync(log, 'utf8')}` : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL in ${dir}: ${(error as Error).message}${detail}`);
  }
  const startMs = performance.now() - started;
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    startMs,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A user's uid and gid, from /etc/passwd (the server's user exists only where the package is installed). */
function userIds(name: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  if (line === undefined) throw new Error(`no user ${name}: install Debian's postgresql package`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
