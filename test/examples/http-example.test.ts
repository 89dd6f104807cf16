/**
 * The README's example pair runs: both processes start, the gateway answers people in JSON through
 * a binary hop, and the internal service negotiates (MessagePack on request, JSON by default, 406
 * for what it does not speak). Runs the same entry point as `npm run example:http -- --demo`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { freePorts } from '../support/tools.js';

const run = promisify(execFile);

test('npm run example:http -- --demo', async () => {
  const [port, internalPort] = await freePorts(2);
  const env = { ...process.env, PORT: String(port), INTERNAL_PORT: String(internalPort) };
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/http/main.ts', '--demo'], {
    env,
    timeout: 60_000,
  });
  const lines = stdout.split('\n');
  const answer = (fragment: string) => lines.find((line) => line.includes(fragment)) ?? '';
  expect(answer('/api/users?country=FR')).toMatch(/^200 application\/json /);
  expect(stdout).toContain('"country":"FR"');
  expect(answer('/api/timeseries?rows=3')).toMatch(/^200 application\/x-ndjson /);
  expect(answer('"accept":"application/msgpack"')).toMatch(/^200 application\/msgpack vary=Accept/);
  expect(answer('/users?limit=100 {}')).toMatch(/^200 application\/json /);
  expect(answer('"accept":"text/html"')).toMatch(/^406 application\/json vary=Accept /);
}, 90_000);
