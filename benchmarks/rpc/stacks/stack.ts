/**
 * What each server of bench:rpc offers the server process: a port that serves the bench service,
 * a way to stop, and one reply through the stack's own serializer alone, so that the process can
 * time its serialization beside the CPU it spent per call (the protocol's cost is the difference).
 */
import type { BenchCodec, Workload } from '../service.js';

export interface RunningStack {
  readonly port: number;
  close(): Promise<void>;
  /** Serializes one reply of `workload` (a stream: each of its messages) as the stack does per call. */
  serializeOnce(workload: Workload): void;
}

export interface StackOptions {
  readonly codec: BenchCodec;
  /** Users in a list reply and in a stream (the first ones of the dataset). */
  readonly users: number;
}

/**
 * A stack's payload in its own value model (protobufjs objects, protobuf-es messages, wirekit
 * values): users by id, and the first `count` users as a list, made once per count and kept, as a
 * service would hold data it serves often; the calls measure the protocol and the serializer.
 */
export class Payload<U, L> {
  readonly byId: ReadonlyMap<number, U>;
  readonly #lists = new Map<number, L>();

  constructor(
    readonly users: readonly U[],
    idOf: (user: U) => number,
    private readonly listOf: (users: U[]) => L,
  ) {
    this.byId = new Map(users.map((user) => [idOf(user), user]));
  }

  first(count: number): readonly U[] {
    return count >= this.users.length ? this.users : this.users.slice(0, count);
  }

  list(count: number): L {
    let list = this.#lists.get(count);
    if (list === undefined) {
      list = this.listOf([...this.first(count)]);
      this.#lists.set(count, list);
    }
    return list;
  }

  user(id: number): U {
    const user = this.byId.get(id);
    if (user === undefined) throw new Error(`no user ${id}`);
    return user;
  }
}

/** The first user's id: what serializeOnce('small') encodes. */
export const anyId = <U>(payload: Payload<U, unknown>): number => [...payload.byId.keys()][0] as number;
