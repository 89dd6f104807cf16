/**
 * What an operator asks a registry about the cluster it belongs to: `GET /v1/metadata/id` (the
 * path Confluent's registry answers with its cluster's scope) and `GET /`, each with the leader's
 * URL and this node's role. A registry on a store of its own (memory, file) is its own leader.
 */
import type { Route } from './routes.js';
import type { SharedLog } from './store.js';

export type ClusterRole = 'leader' | 'follower' | 'electing';

export interface ClusterView {
  /** This registry's URL, as it advertises it. */
  readonly url: string;
  /** The leader's URL, null while an election runs. */
  readonly leader: string | null;
  readonly role: ClusterRole;
}

export function clusterView(shared: SharedLog | undefined, url: string): ClusterView {
  if (shared === undefined) return { url, leader: url, role: 'leader' };
  const leader = shared.leader();
  if (leader === undefined) return { url, leader: null, role: 'electing' };
  return { url, leader: leader.url, role: leader.self ? 'leader' : 'follower' };
}

/** The routes, to be matched before the registry's own (they answer `/` in its place). */
export function clusterRoutes(view: () => ClusterView, clusterId: string): Route[] {
  return [
    { pattern: [], methods: { GET: () => view() } },
    {
      pattern: ['v1', 'metadata', 'id'],
      methods: {
        GET: () => ({
          scope: { path: [], clusters: { 'schema-registry-cluster': clusterId } },
          ...view(),
        }),
      },
    },
  ];
}
