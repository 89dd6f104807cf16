/**
 * A small HTTP server that answers like Confluent's Schema Registry (its documented bodies and
 * error codes), for testing the client over real HTTP before and besides wirekit's own server. It
 * records every request as it arrived (method, raw path, headers, body) so tests assert what the
 * client sent, and takes an `override` that answers in its place: errors, stalls, broken
 * connections, oversized or malformed bodies. It is a peer, not a model of the client: it keeps
 * subjects, versions and ids as a registry does, and knows nothing of caches or retries.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  readonly method: string;
  /** The path and query exactly as sent (percent escapes kept). */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** Answers a request itself (returns true), or leaves it to the registry (false). */
export type Override = (request: SeenRequest, res: ServerResponse) => boolean | Promise<boolean>;

export interface ConfluentPeer {
  readonly url: string;
  readonly seen: SeenRequest[];
  override: Override | undefined;
  /** The requests to one path (method and raw url, e.g. 'GET /schemas/ids/1'). */
  count(what: string): number;
  close(): Promise<void>;
}

interface Version {
  readonly subject: string;
  readonly version: number;
  readonly id: number;
  readonly schemaType: string;
  readonly schema: string;
  readonly references: unknown[];
}

/** Answers with a JSON body as Confluent does; true, so that an override can `return send(...)`. */
export function send(res: ServerResponse, status: number, body: unknown): true {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/vnd.schemaregistry.v1+json' });
  res.end(text);
  return true;
}

export async function startConfluentPeer(): Promise<ConfluentPeer> {
  const subjects = new Map<string, Version[]>();
  const ids = new Map<string, number>();
  const byId = new Map<number, { schemaType: string; schema: string; references: unknown[] }>();
  const configs = new Map<string, string>();
  let global = 'BACKWARD';

  const idFor = (schemaType: string, schema: string, references: unknown[]): number => {
    const key = JSON.stringify([schemaType, schema, references]);
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size + 1;
      ids.set(key, id);
      byId.set(id, { schemaType, schema, references });
    }
    return id;
  };
  const shape = (v: Version) => ({
    subject: v.subject,
    version: v.version,
    id: v.id,
    ...(v.schemaType === 'AVRO' ? {} : { schemaType: v.schemaType }),
    ...(v.references.length === 0 ? {} : { references: v.references }),
    schema: v.schema,
  });

  /** The route a request takes: its method and path with each segment of the caller's own (`:`). */
  const routes: readonly [string, RegExp][] = [
    ['POST subjects/:/versions', /^\/subjects\/([^/]+)\/versions$/],
    ['POST subjects/:', /^\/subjects\/([^/]+)$/],
    ['GET schemas/ids/:', /^\/schemas\/ids\/([^/]+)$/],
    ['GET schemas/ids/:/versions', /^\/schemas\/ids\/([^/]+)\/versions$/],
    ['GET subjects', /^\/subjects$/],
    ['GET subjects/:/versions', /^\/subjects\/([^/]+)\/versions$/],
    ['GET subjects/:/versions/:', /^\/subjects\/([^/]+)\/versions\/([^/]+)$/],
    ['POST compatibility/subjects/:/versions/:', /^\/compatibility\/subjects\/([^/]+)\/versions\/([^/]+)$/],
    ['GET config', /^\/config$/],
    ['PUT config', /^\/config$/],
    ['GET config/:', /^\/config\/([^/]+)$/],
    ['PUT config/:', /^\/config\/([^/]+)$/],
  ];

  function registry(request: SeenRequest, res: ServerResponse): boolean {
    const url = new URL(request.url, 'http://peer');
    let route = 'none';
    let a = '';
    let b = '';
    for (const [name, pattern] of routes) {
      const match = pattern.exec(url.pathname);
      if (match === null || !name.startsWith(`${request.method} `)) continue;
      route = name;
      a = decodeURIComponent(match[1] ?? '');
      b = decodeURIComponent(match[2] ?? '');
      break;
    }
    const body = request.body === '' ? {} : (JSON.parse(request.body) as Record<string, unknown>);
    const definition = () => ({
      schemaType: (body.schemaType as string | undefined) ?? 'AVRO',
      schema: body.schema as string,
      references: (body.references as unknown[] | undefined) ?? [],
    });
    const notFound = (code: number, message: string) => send(res, 404, { error_code: code, message });
    switch (route) {
      case 'POST subjects/:/versions': {
        const d = definition();
        if (d.schema.includes('INVALID'))
          return send(res, 422, { error_code: 42201, message: 'Invalid schema' });
        if (d.schema.includes('INCOMPATIBLE'))
          return send(res, 409, {
            error_code: 409,
            message: 'Schema being registered is incompatible with an earlier schema',
          });
        const list = subjects.get(a) ?? [];
        const id = idFor(d.schemaType, d.schema, d.references);
        if (!list.some((v) => v.id === id)) list.push({ subject: a, version: list.length + 1, id, ...d });
        subjects.set(a, list);
        return send(res, 200, { id });
      }
      case 'POST subjects/:': {
        const list = subjects.get(a);
        if (list === undefined) return notFound(40401, `Subject '${a}' not found.`);
        const d = definition();
        const found = list.find((v) => v.schema === d.schema && v.schemaType === d.schemaType);
        return found === undefined ? notFound(40403, 'Schema not found') : send(res, 200, shape(found));
      }
      case 'GET schemas/ids/:': {
        const found = byId.get(Number(a));
        if (found === undefined) return notFound(40403, 'Schema not found');
        return send(res, 200, {
          ...(found.schemaType === 'AVRO' ? {} : { schemaType: found.schemaType }),
          ...(found.references.length === 0 ? {} : { references: found.references }),
          schema: found.schema,
        });
      }
      case 'GET schemas/ids/:/versions': {
        const id = Number(a);
        const pairs = [...subjects.values()]
          .flat()
          .filter((v) => v.id === id)
          .map((v) => ({ subject: v.subject, version: v.version }));
        return pairs.length === 0 ? notFound(40403, 'Schema not found') : send(res, 200, pairs);
      }
      case 'GET subjects':
        return send(res, 200, [...subjects.keys()]);
      case 'GET subjects/:/versions': {
        const list = subjects.get(a);
        if (list === undefined) return notFound(40401, `Subject '${a}' not found.`);
        return send(
          res,
          200,
          list.map((v) => v.version),
        );
      }
      case 'GET subjects/:/versions/:': {
        const list = subjects.get(a);
        if (list === undefined) return notFound(40401, `Subject '${a}' not found.`);
        const found = b === 'latest' ? list.at(-1) : list.find((v) => v.version === Number(b));
        return found === undefined
          ? notFound(40402, `Version ${b} not found.`)
          : send(res, 200, shape(found));
      }
      case 'POST compatibility/subjects/:/versions/:': {
        if (!subjects.has(a)) return notFound(40401, `Subject '${a}' not found.`);
        const compatible = !definition().schema.includes('INCOMPATIBLE');
        return send(res, 200, {
          is_compatible: compatible,
          ...(url.searchParams.get('verbose') === 'true'
            ? { messages: compatible ? [] : ['READER_FIELD_MISSING_DEFAULT_VALUE at /fields/1'] }
            : {}),
        });
      }
      case 'GET config':
        return send(res, 200, { compatibilityLevel: global });
      case 'PUT config':
        global = body.compatibility as string;
        return send(res, 200, { compatibility: global });
      case 'GET config/:': {
        const own = configs.get(a);
        if (own === undefined && url.searchParams.get('defaultToGlobal') !== 'true')
          return notFound(40408, `Subject '${a}' does not have subject-level compatibility configured`);
        return send(res, 200, { compatibilityLevel: own ?? global });
      }
      case 'PUT config/:':
        configs.set(a, body.compatibility as string);
        return send(res, 200, { compatibility: body.compatibility });
      default:
        return send(res, 404, { error_code: 404, message: 'HTTP 404 Not Found' });
    }
  }

  const seen: SeenRequest[] = [];
  const peer: ConfluentPeer = {
    url: '',
    seen,
    override: undefined,
    count: (what) => seen.filter((r) => `${r.method} ${r.url}` === what).length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const request: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(request);
      if (peer.override !== undefined && (await peer.override(request, res))) return;
      const prefix = new URL(peer.url).pathname.replace(/\/$/, '');
      registry({ ...request, url: request.url.slice(prefix.length) }, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (peer as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return peer;
}
