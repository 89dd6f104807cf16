/**
 * For the registry tests: calls to a registry server over real HTTP (global fetch), as Confluent's
 * clients make them, and a fresh server for each test of a file.
 */
import { afterEach, beforeEach } from 'vitest';
import { registryMediaType } from '../../../../src/boundaries/events/registry/api.js';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';

export interface Reply {
  readonly status: number;
  readonly contentType: string | null;
  /** The body parsed as JSON, or its text when it is not JSON. */
  readonly body: unknown;
  readonly text: string;
}

export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': registryMediaType, ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, contentType: response.headers.get('content-type'), body: parsed, text };
}

/** An Avro record `test.User` with a `name` string and the given extra fields. */
export function userSchema(...fields: readonly object[]): string {
  return JSON.stringify({
    type: 'record',
    name: 'User',
    namespace: 'test',
    fields: [{ name: 'name', type: 'string' }, ...fields],
  });
}

/** `/subjects/NAME` with the name percent-encoded, as clients send it. */
export const subjectPath = (subject: string, rest = '') => `/subjects/${encodeURIComponent(subject)}${rest}`;

/**
 * A fresh registry server on a free port for each test of the file that calls this at its top
 * (through vitest's beforeEach and afterEach), and a call to it over HTTP.
 */
export function registryPerTest(): (method: string, path: string, body?: unknown) => Promise<Reply> {
  let server: RegistryServer | undefined;
  beforeEach(async () => {
    server = await startRegistryServer({ port: 0 });
  });
  afterEach(async () => {
    await server?.close();
  });
  return (method, path, body) => call((server as RegistryServer).url, method, path, body);
}
