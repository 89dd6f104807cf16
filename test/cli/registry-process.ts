/**
 * `wirekit registry serve` as a process (the built dist/cli/main.js, which `pretest` builds), for the
 * tests that start it: started until it prints its URL, and killed after each test (`stopServers`
 * in an afterEach).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  readonly stderr: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: ChildProcess[] = [];

/** Kills every server `serve` started (SIGKILL): the tests' afterEach. */
export function stopServers(): void {
  for (const child of running.splice(0)) child.kill('SIGKILL');
}

/** Starts `wirekit registry serve ARGS` (with `env` added) and resolves once it printed its URL. */
export function serve(args: readonly string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, [main, 'registry', 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s; stderr: ${stderr}`)), 20_000);
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const line = stdout.split('\n')[0];
      if (stdout.includes('\n') && line !== undefined) {
        clearTimeout(timer);
        resolve({ child, url: line, stderr: () => stderr, exited });
      }
    });
    exited.then(({ code }) => reject(new Error(`exited with ${code} before listening; stderr: ${stderr}`)));
  });
}
