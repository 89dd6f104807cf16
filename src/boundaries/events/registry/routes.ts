/**
 * Confluent's REST API as a table: each path pattern, the methods it answers, and what each does
 * to the registry and answers with, in Confluent's shapes (`{"id":1}`, `{"is_compatible":false,
 * "messages":[…]}`, `{"compatibilityLevel":"FULL"}` to a GET but `{"compatibility":"FULL"}` to a
 * PUT, `schemaType` left out for Avro). The HTTP plumbing (server.ts) reads and limits the request,
 * matches it here, and writes what comes back; nothing here knows about sockets.
 *
 * Path parameters arrive decoded, one path segment each, so a subject may hold any character its
 * client percent-encoded, `/` included (`orders%2Fvalue`).
 */
import type { SchemaDefinition, SchemaReference, SubjectVersion } from './api.js';
import { type Access, allows, type RegistryRole } from './basic-auth.js';
import type { SchemaFormat, SchemaRegistry } from './registry.js';
import { moreRegistryErrorCodes, RegistryError, refusals } from './registry-error.js';

/** A reply body that is text as it stands (a schema), not a JSON value to serialise. */
export class RawText {
  constructor(readonly text: string) {}
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteRequest {
  /** The decoded path segments the pattern's `:name` parts matched, in order. */
  readonly params: readonly string[];
  readonly query: URLSearchParams;
  /** The parsed JSON body (undefined when there is none). */
  readonly body: unknown;
  /** Who asks, when the server authenticates (undefined: no auth, everything is allowed). */
  readonly user?: { readonly username: string; readonly role: RegistryRole } | undefined;
}

export type RouteHandler = (request: RouteRequest) => unknown;

export interface Route {
  /** Path segments; `:name` matches any one segment. */
  readonly pattern: readonly string[];
  readonly methods: Partial<Record<Method, RouteHandler>>;
  /** The role a method needs when it is not the default (GET: read; anything else: admin). */
  readonly access?: Partial<Record<Method, Access>>;
}

/**
 * The role a request needs. Reads need `read`; a write needs `admin` unless its route says
 * otherwise, so a route added without thought is closed rather than open.
 */
export function accessOf(route: Route, method: Method): Access {
  return route.access?.[method] ?? (method === 'GET' ? 'read' : 'admin');
}

const maxInt32 = 2 ** 31 - 1;

/** `true` as Java's Boolean.parseBoolean reads it (Confluent's query flags). */
function flag(query: URLSearchParams, name: string): boolean {
  return query.get(name)?.trim().toLowerCase() === 'true';
}

/** A version segment: 1 to 2^31-1, `latest` or -1 (Confluent's alias for it); 42202 otherwise. */
function versionOf(text: string): number | 'latest' {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === 'latest' || trimmed === '-1') return 'latest';
  if (/^[0-9]{1,10}$/.test(trimmed)) {
    const version = Number(trimmed);
    if (version >= 1 && version <= maxInt32) return version;
  }
  throw refusals.invalidVersion(text);
}

/** An id segment: a whole number up to 2^31-1; any other text names no schema (40403). */
function idOf(text: string): number {
  const id = /^[0-9]{1,10}$/.test(text) ? Number(text) : Number.NaN;
  if (!(id >= 0 && id <= maxInt32)) throw refusals.schemaNotFound(text.length > 40 ? undefined : text);
  return id;
}

/**
 * Confluent's `?format=`: `serialized` asks for a Protobuf schema as a base64 FileDescriptorProto,
 * `resolved` for an Avro schema with its references' types written in. Either one asked of another
 * type, Protobuf's `ignore_extensions` and any unknown value give the schema as registered, as
 * Confluent gives it for a format that does not apply to the schema's type.
 */
function formatOf(query: URLSearchParams): SchemaFormat {
  const format = query.get('format')?.trim().toLowerCase();
  return format === 'serialized' || format === 'resolved' ? format : 'default';
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new RegistryError(
      moreRegistryErrorCodes.unprocessable,
      'Unprocessable Entity: the body must be a JSON object',
    );
  }
  return body as Record<string, unknown>;
}

/** A register, lookup or compatibility body: `{"schema", "schemaType"?, "references"?}`, checked (42201). */
function definitionOf(body: unknown): SchemaDefinition {
  const fields = bodyObject(body);
  const { schema, schemaType, references } = fields;
  if (typeof schema !== 'string') throw refusals.invalidSchema('the body has no "schema" string');
  if (schemaType !== undefined && schemaType !== null && typeof schemaType !== 'string') {
    throw refusals.invalidSchema('"schemaType" is not a string');
  }
  const refs: SchemaReference[] = [];
  if (references !== undefined && references !== null) {
    if (!Array.isArray(references)) throw refusals.invalidSchema('"references" is not an array');
    for (const reference of references) {
      const { name, subject, version } = (reference ?? {}) as Record<string, unknown>;
      const versionOk =
        typeof version === 'number' && Number.isInteger(version) && version >= 1 && version <= maxInt32;
      if (typeof name !== 'string' || typeof subject !== 'string' || !versionOk) {
        throw refusals.invalidSchema(
          'a reference needs a "name", a "subject" and a "version" from 1 to 2^31-1',
        );
      }
      refs.push({ name, subject, version });
    }
  }
  return {
    schema,
    ...(typeof schemaType === 'string' ? { schemaType: schemaType as SchemaDefinition['schemaType'] } : {}),
    references: refs,
  };
}

/** `{"compatibility": "FULL"}` (Confluent also reads `compatibilityLevel`); 42203 otherwise. */
function levelOf(body: unknown): string {
  const fields = bodyObject(body);
  const level = fields.compatibility ?? fields.compatibilityLevel;
  if (typeof level !== 'string') throw refusals.invalidCompatibilityLevel();
  return level;
}

/** `{"mode": "READONLY"}`; 42204 otherwise. */
function modeOf(body: unknown): string {
  const { mode } = bodyObject(body);
  if (typeof mode !== 'string') throw refusals.invalidMode();
  return mode;
}

/** A schema's fields as Confluent writes them: no schemaType for Avro, no empty references. */
function schemaFields(definition: SchemaDefinition): Record<string, unknown> {
  return {
    ...(definition.schemaType === undefined || definition.schemaType === 'AVRO'
      ? {}
      : { schemaType: definition.schemaType }),
    ...(definition.references === undefined || definition.references.length === 0
      ? {}
      : { references: definition.references }),
    schema: definition.schema,
  };
}

function versionBody(version: SubjectVersion): Record<string, unknown> {
  return { subject: version.subject, version: version.version, id: version.id, ...schemaFields(version) };
}

/** The definition with its text as the query's `format` asks. */
async function formattedAs<D extends SchemaDefinition>(
  registry: SchemaRegistry,
  definition: D,
  query: URLSearchParams,
): Promise<D> {
  return { ...definition, schema: await registry.formatted(definition, formatOf(query)) };
}

export function registryRoutes(registry: SchemaRegistry): Route[] {
  const compatibilityAnswer = async ({ params, query, body }: RouteRequest) => {
    const [subject, version] = params as [string, string | undefined];
    const result = await registry.testCompatibility(
      subject,
      definitionOf(body),
      version === undefined ? undefined : versionOf(version),
    );
    return flag(query, 'verbose')
      ? { is_compatible: result.compatible, messages: result.messages }
      : { is_compatible: result.compatible };
  };
  const deleted = (query: URLSearchParams) => ({ deleted: flag(query, 'deleted') });

  return [
    { pattern: [], methods: { GET: () => ({}) } },
    { pattern: ['schemas', 'types'], methods: { GET: () => [...registry.schemaTypes] } },
    {
      pattern: ['schemas', 'ids', ':id'],
      methods: {
        GET: async ({ params, query }) =>
          schemaFields(await formattedAs(registry, registry.schemaById(idOf(params[0] as string)), query)),
      },
    },
    {
      pattern: ['schemas', 'ids', ':id', 'schema'],
      methods: {
        GET: async ({ params, query }) =>
          new RawText(
            await registry.formatted(registry.schemaById(idOf(params[0] as string)), formatOf(query)),
          ),
      },
    },
    {
      pattern: ['schemas', 'ids', ':id', 'versions'],
      methods: {
        GET: ({ params, query }) => registry.versionsOfId(idOf(params[0] as string), deleted(query)),
      },
    },
    {
      pattern: ['schemas', 'ids', ':id', 'subjects'],
      methods: {
        GET: ({ params, query }) => registry.subjectsOfId(idOf(params[0] as string), deleted(query)),
      },
    },
    { pattern: ['subjects'], methods: { GET: ({ query }) => registry.subjects(deleted(query)) } },
    {
      pattern: ['subjects', ':subject'],
      methods: {
        POST: async ({ params, query, body }) =>
          versionBody(await registry.lookup(params[0] as string, definitionOf(body), deleted(query))),
        DELETE: ({ params, query }) =>
          registry.deleteSubject(params[0] as string, { permanent: flag(query, 'permanent') }),
      },
      // A lookup is a read (consumers' serializers make it), sent as a POST for its body.
      access: { POST: 'read' },
    },
    {
      pattern: ['subjects', ':subject', 'versions'],
      methods: {
        GET: ({ params, query }) => registry.versions(params[0] as string, deleted(query)),
        POST: async ({ params, body }) => {
          const { id } = await registry.register(params[0] as string, definitionOf(body));
          return { id };
        },
      },
      access: { POST: 'write' },
    },
    {
      pattern: ['subjects', ':subject', 'versions', ':version'],
      methods: {
        GET: async ({ params, query }) =>
          versionBody(
            await formattedAs(
              registry,
              registry.version(params[0] as string, versionOf(params[1] as string), deleted(query)),
              query,
            ),
          ),
        DELETE: ({ params, query }) =>
          registry.deleteVersion(params[0] as string, versionOf(params[1] as string), {
            permanent: flag(query, 'permanent'),
          }),
      },
    },
    {
      pattern: ['subjects', ':subject', 'versions', ':version', 'schema'],
      methods: {
        GET: async ({ params, query }) =>
          new RawText(
            await registry.formatted(
              registry.version(params[0] as string, versionOf(params[1] as string), deleted(query)),
              formatOf(query),
            ),
          ),
      },
    },
    {
      pattern: ['subjects', ':subject', 'versions', ':version', 'referencedby'],
      methods: {
        GET: ({ params }) => registry.referencedBy(params[0] as string, versionOf(params[1] as string)),
      },
    },
    {
      pattern: ['compatibility', 'subjects', ':subject', 'versions'],
      methods: { POST: compatibilityAnswer },
      access: { POST: 'read' },
    },
    {
      pattern: ['compatibility', 'subjects', ':subject', 'versions', ':version'],
      methods: { POST: compatibilityAnswer },
      access: { POST: 'read' },
    },
    {
      pattern: ['config'],
      methods: {
        GET: () => ({ compatibilityLevel: registry.compatibility() }),
        PUT: async ({ body }) => ({ compatibility: await registry.setCompatibility(levelOf(body)) }),
        DELETE: async () => ({ compatibilityLevel: await registry.deleteCompatibility() }),
      },
    },
    {
      pattern: ['config', ':subject'],
      methods: {
        GET: ({ params, query }) => ({
          compatibilityLevel: registry.compatibility(params[0] as string, {
            defaultToGlobal: flag(query, 'defaultToGlobal'),
          }),
        }),
        PUT: async ({ params, body, user }) => {
          const subject = params[0] as string;
          const level = levelOf(body);
          // @kafkajs/confluent-schema-registry pins the level in force on a subject's first
          // registration: a producer may do that much, but only an admin may change a level.
          const inForce = registry.compatibility(subject, { defaultToGlobal: true });
          if (user !== undefined && !allows(user.role, 'admin') && level.toUpperCase() !== inForce) {
            throw refusals.forbidden(
              user.username,
              `changing a level needs the admin role; a ${user.role} user may only set the level in force (${inForce})`,
            );
          }
          return { compatibility: await registry.setCompatibility(level, subject) };
        },
        DELETE: async ({ params }) => ({
          compatibilityLevel: await registry.deleteCompatibility(params[0] as string),
        }),
      },
      access: { PUT: 'write' },
    },
    {
      pattern: ['mode'],
      methods: {
        GET: () => ({ mode: registry.mode() }),
        PUT: async ({ body }) => ({ mode: await registry.setMode(modeOf(body)) }),
      },
    },
    {
      pattern: ['mode', ':subject'],
      methods: {
        GET: ({ params, query }) => ({
          mode: registry.mode(params[0] as string, { defaultToGlobal: flag(query, 'defaultToGlobal') }),
        }),
        PUT: async ({ params, body }) => ({
          mode: await registry.setMode(modeOf(body), params[0] as string),
        }),
        DELETE: async ({ params }) => ({ mode: await registry.deleteMode(params[0] as string) }),
      },
    },
  ];
}

/** The route whose pattern the segments fit, and the segments its `:name` parts took. */
export function matchRoute(
  routes: readonly Route[],
  segments: readonly string[],
): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    if (route.pattern.length !== segments.length) continue;
    const params: string[] = [];
    const fits = route.pattern.every((part, index) => {
      const segment = segments[index] as string;
      if (part.startsWith(':')) {
        params.push(segment);
        return true;
      }
      return part === segment;
    });
    if (fits) return { route, params };
  }
  return undefined;
}
