/**
 * How an event's key and headers travel on NATS, which has no key: the key rides in a header, as
 * text (`wirekit-key`) when it is a string a header can carry unchanged, and as base64
 * (`wirekit-key-b64`) otherwise (bytes, or text with line breaks or edge whitespace, which NATS
 * headers cannot hold or trim away). The headers a handler sees are the producer's, without the key
 * and without JetStream's own `Nats-*` headers.
 */
import { WirekitError } from '../../../errors/index.js';
import type { EventKey } from '../transport.js';

export const keyHeader = 'wirekit-key';
export const binaryKeyHeader = 'wirekit-key-b64';

/** NATS header names are printable ASCII without ':' (its MIME-style parser splits there). */
const headerName = /^[!-9;-~]+$/;
/** Values may not break the line, and NATS trims edge whitespace, so such values would change. */
const unsafeValue = /[\r\n]|^\s|\s$/;
/** Names the binding writes (or JetStream reads) itself. */
const reservedName = /^(?:nats-|wirekit-key)/i;

/**
 * A NATS message's headers (the client's `MsgHdrs`), by the members used here: declared by shape,
 * since this module's declarations are part of `wirekit-ts/events` and the client is an optional peer.
 */
export interface NatsHeaders {
  keys(): string[];
  get(name: string): string;
  set(name: string, value: string): void;
}

/**
 * Checks the caller's headers before anything is published: a name NATS cannot carry, a value it
 * would change, or a name the binding reserves is a WK_VALIDATION_FAILED at `headers.NAME`.
 */
export function checkHeaders(headers: Readonly<Record<string, string>> | undefined): void {
  if (headers === undefined) return;
  for (const [name, value] of Object.entries(headers)) {
    const problem = !headerName.test(name)
      ? 'is not a valid NATS header name'
      : reservedName.test(name)
        ? 'is reserved (Nats-* for JetStream, wirekit-key* for the key)'
        : typeof value !== 'string'
          ? 'has a value that is not a string'
          : unsafeValue.test(value)
            ? 'has a value with a line break or leading/trailing whitespace, which NATS cannot carry unchanged'
            : undefined;
    if (problem !== undefined) {
      throw new WirekitError('WK_VALIDATION_FAILED', `headers[${JSON.stringify(name)}]: header ${problem}`, {
        path: ['headers', name],
      });
    }
  }
}

/** Writes the key and the (checked) headers into `target`. */
export function writeHeaders(
  target: NatsHeaders,
  key: EventKey | undefined,
  headers: Readonly<Record<string, string>> | undefined,
): void {
  if (headers !== undefined) for (const [name, value] of Object.entries(headers)) target.set(name, value);
  if (key === undefined) return;
  if (typeof key === 'string' && !unsafeValue.test(key)) target.set(keyHeader, key);
  else {
    const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
    target.set(
      binaryKeyHeader,
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
    );
  }
}

export interface IncomingHeaders {
  readonly key: Uint8Array | undefined;
  readonly headers: Readonly<Record<string, string>>;
}

/** The key and the producer's headers of a stored message (the first value of a repeated header). */
export function readHeaders(source: NatsHeaders | undefined): IncomingHeaders {
  const headers: Record<string, string> = Object.create(null);
  let key: Uint8Array | undefined;
  if (source === undefined) return { key, headers };
  for (const name of source.keys()) {
    const value = source.get(name);
    if (name === keyHeader) key = new Uint8Array(Buffer.from(value, 'utf8'));
    else if (name === binaryKeyHeader) key = new Uint8Array(Buffer.from(value, 'base64'));
    else if (!/^nats-/i.test(name)) headers[name] = value;
  }
  return { key, headers };
}

/** Header values from an error message: one line, bounded (a message can quote hostile input). */
export function headerSafe(text: string, maxLength = 1024): string {
  const line = text.replace(/[\r\n]+/g, ' ').trim();
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
}
