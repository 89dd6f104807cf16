/**
 * Which of the registries sharing a Kafka topic is its one writer, decided by Kafka's group
 * protocol as Confluent's registry (KafkaGroupLeaderElector) and Karapace (its master coordinator)
 * decide it: every registry joins one consumer group, advertising its URL in its member metadata,
 * and the member the group's assignment gives partition 0 of the topic leads. Kafka's coordinator
 * owns the membership: a registry that stops heartbeating (killed, cut off) is dropped after the
 * session timeout, and the members left rejoin and assign the partition again. Nothing here votes
 * or pings on its own.
 *
 * The assignment keeps a leader that is still a member (a registry joining does not take over)
 * unless it was away for a session (then another may lead already), and otherwise picks the
 * member with the smallest member id. Followers learn the leader's URL from the group's
 * description (its members' metadata and assignments), which the broker answers.
 *
 * Leadership is also a lease: a leader that has not heartbeated within the session timeout stops
 * counting itself the leader, because by then the coordinator may have handed the partition to
 * another member. That bounds how long a leader that lost the broker (a pause, a network split)
 * could write beside a new one.
 */
import type { Admin, Assigner, Consumer, GroupMember, Kafka } from 'kafkajs';
import type { Kafkajs } from '../kafka/connection.js';

export interface LeaderElectionOptions {
  readonly kafkajs: Kafkajs;
  readonly kafka: Kafka;
  readonly admin: Admin;
  /** The registry's topic: the group "consumes" it, and partition 0 is the leadership. */
  readonly topic: string;
  readonly groupId: string;
  /** This registry's URL, as the others forward writes to it. */
  readonly url: string;
  /** How long the coordinator waits for a silent member before dropping it. */
  readonly sessionTimeoutMs: number;
  /** Told whenever the leader (or whether one is known) changes. */
  readonly onChange: () => void;
}

export interface Leader {
  readonly url: string;
  /** Whether this registry leads. */
  readonly self: boolean;
}

export interface LeaderElection {
  /** The leader, or undefined while the group rebalances (or this registry lost the broker). */
  leader(): Leader | undefined;
  /**
   * Kafka refused this registry's write as a replaced leader's (kafka-writer.ts): it stops counting
   * itself the leader at once, and learns the leader from the group's description, which the broker
   * answers, rather than wait until its own consumer notices that it was dropped from the group.
   */
  stepDown(): void;
  /** Leaves the group, so that the others elect a leader at once rather than after the session timeout. */
  stop(): Promise<void>;
}

/** What a member advertises: where it answers, and whether it leads now (to keep leading). */
interface MemberInfo {
  readonly url: string;
  readonly leading: boolean;
}

const assignerName = 'wirekit-registry-leader';

function infoOf(kafkajs: Kafkajs, metadata: Buffer): MemberInfo | undefined {
  try {
    const decoded = kafkajs.AssignerProtocol.MemberMetadata.decode(metadata);
    const info = JSON.parse(decoded?.userData.toString('utf8') ?? '') as Partial<MemberInfo>;
    return typeof info.url === 'string' ? { url: info.url, leading: info.leading === true } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The member to lead: the one leading now if it is still there, else the smallest member id (a
 * rule every group leader applies alike). Members whose metadata is not a registry's are passed over.
 * @internal exported for its tests, which need no broker.
 */
export function chooseLeader(members: readonly { memberId: string; info: MemberInfo | undefined }[]) {
  const eligible = members
    .filter((member) => member.info !== undefined)
    .sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
  return eligible.find((member) => member.info?.leading === true) ?? eligible[0];
}

export async function joinLeaderElection(options: LeaderElectionOptions): Promise<LeaderElection> {
  const { kafkajs, kafka, admin, topic, groupId, url, sessionTimeoutMs } = options;
  const { MemberAssignment, MemberMetadata } = kafkajs.AssignerProtocol;
  let current: Leader | undefined;
  /** Whether the last assignment made this registry the leader: kept through a rebalance, to keep it. */
  let ledLast = false;
  /** When the coordinator last confirmed this member (a join or a heartbeat). */
  let confirmedAt = 0;
  let generation = 0;
  let stopped = false;

  /**
   * Whether to ask the group to keep this registry as its leader. Not after a session without word
   * from the coordinator (a pause, a split): the group has dropped this member and may have chosen
   * another leader, which also asks to keep leading; were both to ask, the rule that breaks the tie
   * (the smaller member id) could hand the lead back to the registry that was away, and make the
   * one that took over in its absence step down.
   */
  const stillLeading = () => ledLast && leaseHeld();
  /** Whether the coordinator confirmed this member within a session. */
  const leaseHeld = () => Date.now() - confirmedAt < sessionTimeoutMs;

  const set = (leader: Leader | undefined) => {
    if (leader?.url === current?.url && leader?.self === current?.self) return;
    current = leader;
    options.onChange();
  };

  const assigner: Assigner = {
    name: assignerName,
    version: 0,
    protocol: ({ topics }) => ({
      name: assignerName,
      metadata: MemberMetadata.encode({
        version: 0,
        topics,
        userData: Buffer.from(JSON.stringify({ url, leading: stillLeading() })),
      }),
    }),
    async assign({ members }: { members: GroupMember[] }) {
      const chosen = chooseLeader(
        members.map((member) => ({
          memberId: member.memberId,
          info: infoOf(kafkajs, member.memberMetadata),
        })),
      );
      return members.map((member) => ({
        memberId: member.memberId,
        memberAssignment: MemberAssignment.encode({
          version: 0,
          assignment: member.memberId === chosen?.memberId ? { [topic]: [0] } : {},
          userData: Buffer.alloc(0),
        }),
      }));
    },
  };

  /** The leader's URL, from the group's description: the member assigned partition 0. */
  const leaderFromGroup = async (): Promise<string | undefined> => {
    const { groups } = await admin.describeGroups([groupId]);
    for (const member of groups[0]?.members ?? []) {
      const assigned = MemberAssignment.decode(member.memberAssignment)?.assignment[topic] ?? [];
      if (assigned.includes(0)) return infoOf(kafkajs, member.memberMetadata)?.url;
    }
    return undefined;
  };

  const consumer: Consumer = kafka.consumer({
    groupId,
    partitionAssigners: [() => assigner],
    sessionTimeout: sessionTimeoutMs,
    rebalanceTimeout: sessionTimeoutMs,
    heartbeatInterval: Math.max(100, Math.floor(sessionTimeoutMs / 6)),
    maxWaitTimeInMs: 250,
    allowAutoTopicCreation: false,
  });
  const { GROUP_JOIN, HEARTBEAT, REBALANCING } = consumer.events;
  consumer.on(HEARTBEAT, () => {
    confirmedAt = Date.now();
  });
  // A crash (the broker away) keeps what the last join said: kafkajs rejoins, and the lease below
  // stops a leader that stays away longer than a session.
  consumer.on(REBALANCING, () => set(undefined));
  /**
   * Asks the group for its leader until it answers with one (right after a join it may still be
   * syncing), unless a later join or step-down came first. `othersOnly`: an answer naming this
   * registry is stale (it stepped down) and is asked again.
   */
  const learnLeader = (othersOnly: boolean) => {
    const asked = generation;
    const ask = async (attempt: number): Promise<void> => {
      if (stopped || asked !== generation) return;
      const leaderUrl = await leaderFromGroup().catch(() => undefined);
      if (stopped || asked !== generation) return;
      if (leaderUrl !== undefined && !(othersOnly && leaderUrl === url)) {
        set({ url: leaderUrl, self: leaderUrl === url });
      } else setTimeout(() => void ask(attempt + 1), Math.min(1_000, 50 * 2 ** attempt));
    };
    void ask(0);
  };
  consumer.on(GROUP_JOIN, (event) => {
    confirmedAt = Date.now();
    generation += 1;
    ledLast = event.payload.memberAssignment[topic]?.includes(0) === true;
    if (ledLast) {
      set({ url, self: true });
      return;
    }
    set(undefined);
    learnLeader(false);
  });

  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: false });
  // The leader is assigned the topic's partition and fetches its tail; nothing is done with it.
  await consumer.run({ autoCommit: false, eachBatch: async () => {} });

  return {
    leader() {
      // A leader that the coordinator has not heard from for a session may have been replaced.
      if (current?.self === true && !leaseHeld()) return undefined;
      return current;
    },
    stepDown() {
      generation += 1;
      ledLast = false;
      set(undefined);
      learnLeader(true);
    },
    async stop() {
      stopped = true;
      current = undefined;
      await consumer.disconnect().catch(() => {});
    },
  };
}
