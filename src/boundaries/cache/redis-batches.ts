/**
 * How the Redis store sends one operation's batch of keys. Standalone, the whole batch is one
 * group: one command, or one pipeline when it takes several. In a Cluster a multi-key command (an
 * MGET, a DEL, a script's keys) must stay within one hash slot (CROSSSLOT otherwise), so a batch is
 * split by slot (key-slot.ts, hash tags honoured) and the slots by the node that serves them: each
 * node gets one pipeline holding every slot group's commands, the nodes are asked at once, and
 * each operation's `take` puts the answers back in the caller's key order.
 */
import type { ChainableCommander, Cluster, Redis } from 'ioredis';
import { keySlot } from './key-slot.js';

export type PipelineResults = [error: Error | null, result: unknown][];

/**
 * One operation's commands for a group of keys that share a connection (standalone) or a slot
 * (cluster): queued on a pipeline, read back from that pipeline's results, or sent on their own,
 * which a Cluster routes (and redirects) command by command.
 */
export interface GroupCommands {
  /** How many commands (and results) the group takes: one needs no pipeline. */
  count(group: readonly number[]): number;
  /** Adds the group's commands to `pipeline` (`count(group)` of them). */
  queue(pipeline: ChainableCommander, group: readonly number[]): void;
  /** Takes the group's answers from its (error-free) share of the pipeline's results. */
  take(results: PipelineResults, group: readonly number[]): void;
  /** Sends the group's commands without a pipeline and takes their answers. */
  direct(client: Redis | Cluster, group: readonly number[]): Promise<void>;
}

export function isClusterClient(client: Redis | Cluster): client is Cluster {
  return (client as { isCluster?: boolean }).isCluster === true;
}

/** Throws the first error in a pipeline's results (a command of it failed). */
function checked(results: PipelineResults | null): PipelineResults {
  if (results === null) throw new Error('the pipeline was discarded');
  for (const [error] of results) if (error !== null) throw error;
  return results;
}

/** Every key of a standalone batch in one group: one command, or one pipeline when it takes several. */
export async function runStandalone(client: Redis, count: number, commands: GroupCommands): Promise<void> {
  const all = Array.from({ length: count }, (_, i) => i);
  if (commands.count(all) === 1) {
    await commands.direct(client, all);
    return;
  }
  const pipeline = client.pipeline();
  commands.queue(pipeline, all);
  commands.take(checked(await pipeline.exec()), all);
}

/**
 * The indexes of `keys`, one array per slot, the slots grouped by the node ioredis believes serves
 * them (a slot it knows no node for yet goes alone; ioredis then queues or refuses it as it is set up to).
 */
function slotGroupsByNode(cluster: Cluster, keys: readonly string[]): number[][][] {
  const bySlot = new Map<number, number[]>();
  for (let i = 0; i < keys.length; i++) {
    const slot = keySlot(keys[i] as string);
    const group = bySlot.get(slot);
    if (group === undefined) bySlot.set(slot, [i]);
    else group.push(i);
  }
  const byNode = new Map<string, number[][]>();
  for (const [slot, group] of bySlot) {
    const node = cluster.slots[slot]?.[0] ?? `slot ${slot}`;
    const groups = byNode.get(node);
    if (groups === undefined) byNode.set(node, [group]);
    else groups.push(group);
  }
  return [...byNode.values()];
}

/**
 * A cluster batch: one pipeline per node holding every slot group's commands, the nodes at once.
 * A group whose commands failed in the pipeline, or all of a node's groups when its pipeline failed
 * as a whole, are sent again on their own: the usual cause is a redirection (MOVED or ASK after
 * slots moved, which ioredis follows for a single command but not for a pipeline of several
 * slots), or ioredis's own slot function disagreeing with Redis on an odd key (an empty `{}`
 * before a tag, a lone surrogate) and refusing the pipeline. What fails again is the answer.
 */
export async function runCluster(
  cluster: Cluster,
  keys: readonly string[],
  commands: GroupCommands,
): Promise<void> {
  await Promise.all(
    slotGroupsByNode(cluster, keys).map(async (groups) => {
      const pipeline = cluster.pipeline();
      const counts = groups.map((group) => {
        commands.queue(pipeline, group);
        return commands.count(group);
      });
      const results = await pipeline.exec().catch(() => null);
      let offset = 0;
      const retries: Promise<void>[] = [];
      for (let g = 0; g < groups.length; g++) {
        const group = groups[g] as number[];
        const share = results?.slice(offset, offset + (counts[g] as number));
        offset += counts[g] as number;
        if (share !== undefined && share.length === counts[g] && share.every(([error]) => error === null)) {
          commands.take(share, group);
        } else {
          retries.push(commands.direct(cluster, group));
        }
      }
      await Promise.all(retries);
    }),
  );
}
