/**
 * bench:gateway's service: bench:rpc's (one user by id, the users as one reply), the same messages
 * and method names, with the REST mapping each method needs to be reached through the gateway. The
 * backend serves bench:rpc's UserService unchanged: the mapping lives only at the edge, and the
 * bytes between the gateway and the backend are those of bench:rpc.
 */
import { t } from 'wirekit-ts/schema';
import { serviceName, UserService, type Workload } from '../rpc/service.js';

const { GetUser, ListUsers } = UserService.methods;

export const GatewayUserService = t.service(serviceName, {
  GetUser: t.unary(GetUser.input, GetUser.output, { http: { get: '/v1/users/{id}' } }),
  // `count` comes from the query string: every field the path does not bind does.
  ListUsers: t.unary(ListUsers.input, ListUsers.output, { http: { get: '/v1/users' } }),
});

/** A unary workload of bench:rpc: one user by id, or the first users as one reply. */
export type GatewayWorkload = Exclude<Workload, 'stream'>;
export const gatewayWorkloads: readonly GatewayWorkload[] = ['small', 'list'];

/** The REST path a load-generator request takes for each workload. */
export const restPathOf = {
  small: (id: number) => `/v1/users/${id}`,
  list: (count: number) => `/v1/users?count=${count}`,
} as const;
