/**
 * The internal service's endpoints, declared once: the service's routes and the gateway's client
 * both take their types (path parameters, query, reply) from these, so neither side parses text.
 */
import { endpoint } from 'wirekit-ts/http';
// The bench's datasets, which the package does not export: fixtures of this repository.
import { Reading, User } from 'wirekit-ts/lab';
import { t } from 'wirekit-ts/schema';

export const listUsers = endpoint({
  method: 'GET',
  url: '/users',
  query: t.object('UserFilter', {
    country: t.optional(t.string({ maxLength: 2 })),
    limit: t.optional(t.uint32()),
  }),
  reply: t.array(User),
});

export const getUser = endpoint({
  method: 'GET',
  url: '/users/:id',
  params: t.object('UserRef', { id: t.uint32() }),
  reply: User,
});

export const timeseries = endpoint({
  method: 'GET',
  url: '/timeseries',
  query: t.object('Window', { rows: t.field(t.uint32(), { default: 100_000 }) }),
  stream: Reading,
});
