/**
 * Starts the pair: the internal service and the public gateway, each in a process of its own as
 * they would run, and prints what to try. `--demo` makes a few calls, prints them and exits.
 *
 *   npm run example:http                # then try the curl commands it prints
 *   npm run example:http -- --demo
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const internalPort = Number(process.env.INTERNAL_PORT ?? 3001);
const gatewayPort = Number(process.env.PORT ?? 3000);
const format = process.env.INTERNAL_FORMAT ?? 'msgpack';
const children: ChildProcess[] = [];

/** Starts `file` with tsx and resolves once it prints its ready line. */
function start(file: string, env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', here(file)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
    child.stdout?.on('data', (data: Buffer) => {
      process.stdout.write(data);
      if (data.toString().includes(' on http://')) resolve();
    });
  });
}

function stopAll(): void {
  for (const child of children) child.kill('SIGTERM');
}
process.on('SIGINT', () => {
  stopAll();
  process.exit(0);
});

try {
  await start('./internal-service.ts', { PORT: String(internalPort) });
  await start('./gateway.ts', {
    PORT: String(gatewayPort),
    INTERNAL_URL: `http://127.0.0.1:${internalPort}`,
    INTERNAL_FORMAT: format,
  });
} catch (error) {
  stopAll();
  throw error;
}

const gateway = `http://127.0.0.1:${gatewayPort}`;
const internal = `http://127.0.0.1:${internalPort}`;
if (process.argv.includes('--demo')) {
  const show = async (url: string, headers: Record<string, string> = {}) => {
    const response = await fetch(url, { headers });
    const body = new Uint8Array(await response.arrayBuffer());
    const type = response.headers.get('content-type') ?? '';
    const text = type.includes('json')
      ? new TextDecoder().decode(body).slice(0, 160)
      : `${body.length} bytes`;
    console.log(
      `${response.status} ${type} vary=${response.headers.get('vary')} ${url} ${JSON.stringify(headers)}\n  ${text}`,
    );
  };
  await show(`${gateway}/api/users?country=FR&limit=2`);
  await show(`${gateway}/api/timeseries?rows=3`, { accept: 'application/x-ndjson' });
  await show(`${internal}/users?limit=100`, { accept: 'application/msgpack' });
  await show(`${internal}/users?limit=100`);
  await show(`${internal}/users?limit=100`, { accept: 'text/html' });
  stopAll();
} else {
  console.log(`
Try:
  curl -s '${gateway}/api/users?country=FR&limit=3'
  curl -s '${gateway}/api/timeseries?rows=5' -H 'Accept: application/x-ndjson'
  curl -si '${internal}/users?limit=2' -H 'Accept: application/msgpack' | head -5
  curl -si '${internal}/users?limit=2' -H 'Accept: text/html'
  curl -s  '${internal}/timeseries?rows=1000000' -H 'Accept: application/vnd.apache.arrow.stream' | wc -c
Ctrl-C stops both.`);
}
