/**
 * Where the registry parses and checks schemas: a worker thread (check-worker.ts), so that the
 * thread answering requests never waits on a schema, however large.
 *
 * Why a worker rather than yielding to the event loop between steps: with the rules linear and the
 * schemas bounded (maxSchemaNodes), the largest schema allowed still takes 50-150 ms of CPU to parse
 * and as much to check against each version (several times that on a busy machine), and one of
 * those steps is the least a yield could split off without threading async through every parser and
 * rule; each would stall every other request for its length. In a worker, GET /subjects is answered
 * in a millisecond while a maximal FULL_TRANSITIVE check runs, and the parsed schemas (a multiple of
 * their text's size) live on the worker's heap, capped by `resourceLimits`: a request that exhausts
 * it ends the worker (that request gets a 500, the next one a fresh worker), not the registry. What
 * crosses threads is the candidate's text and, for versions the worker's cache lost, theirs.
 *
 * The registries of one process share a worker (one per cache configuration): started on the first
 * job, it runs jobs in the order they come, and is left idle (never holding the process open) when
 * its registries close, for the next registry to use.
 */
import { Worker } from 'node:worker_threads';
import type { ResolvedDefinition, SchemaLimits } from '../compatibility/index.js';
import type { CompatibilityLevel } from './api.js';
import type { CheckReply, CheckRequest, CheckWorkerData, RenderFormat } from './check-worker.js';
import type { CompatibilityResult } from './client-api.js';
import { defaultParsedCacheLimits, type ParsedCacheLimits } from './parsed-cache.js';
import { refusals } from './registry-error.js';

/** The worker's heap: room for the cache's parsed schemas and the largest parses under way. */
const workerHeapMb = 1024;

export interface SchemaWorkOptions {
  readonly limits?: SchemaLimits;
  readonly cache?: ParsedCacheLimits;
}

/** An existing version to check against: its schema's identity and id, and its text if asked for. */
export interface ExistingVersion {
  readonly identity: string;
  readonly id: number;
  readonly definition: ResolvedDefinition;
}

export type Identified =
  | { readonly ok: true; readonly identity: string }
  | { readonly ok: false; readonly message: string };

/** A request without its job number, which the thread gives it. */
type Job = CheckRequest extends infer R ? (R extends { job: number } ? Omit<R, 'job'> : never) : never;

/** One registry's use of its process's schema worker. */
export class SchemaWork {
  private readonly thread: WorkerThread;
  private readonly limits: SchemaLimits;
  private closed = false;

  constructor(options: SchemaWorkOptions = {}) {
    this.limits = options.limits ?? {};
    this.thread = WorkerThread.for({ ...defaultParsedCacheLimits, ...options.cache });
  }

  /** The schema's identity, or why it does not parse (WK_REGISTRY_SCHEMA_INVALID's message). */
  async identify(definition: ResolvedDefinition): Promise<Identified> {
    const reply = await this.run({ kind: 'identify', limits: this.limits, definition });
    if (reply.kind === 'identified') return { ok: true, identity: reply.identity };
    if (reply.kind === 'invalid') return { ok: false, message: reply.message };
    throw unexpected(reply);
  }

  /** The candidate (identified before) checked against the versions, as checkCompatibility answers. */
  async check(
    candidate: { readonly identity: string; readonly definition: ResolvedDefinition },
    existing: readonly ExistingVersion[],
    level: CompatibilityLevel,
    versions: readonly number[],
  ): Promise<CompatibilityResult> {
    const byId = new Map(existing.map((version) => [version.id, version.definition]));
    const reply = await this.run(
      {
        kind: 'check',
        limits: this.limits,
        candidate,
        existing: existing.map(({ identity, id }) => ({ identity, id })),
        level,
        versions,
      },
      (ids) => ids.map((id) => byId.get(id) as ResolvedDefinition),
    );
    if (reply.kind === 'checked') return reply.result;
    if (reply.kind === 'invalid') return { compatible: false, messages: [reply.message] };
    throw unexpected(reply);
  }

  /**
   * A stored schema as a reader asks for it: its `.proto` text (for one registered as a
   * FileDescriptorProto), or a Protobuf schema's base64 FileDescriptorProto (`serialized`).
   */
  async render(definition: ResolvedDefinition, format: RenderFormat): Promise<string> {
    const reply = await this.run({ kind: 'render', limits: this.limits, definition, format });
    if (reply.kind === 'rendered') return reply.schema;
    throw unexpected(reply);
  }

  /** Refuses later jobs; the jobs under way are answered. */
  close(): void {
    this.closed = true;
  }

  private run(job: Job, texts?: (ids: readonly number[]) => ResolvedDefinition[]): Promise<CheckReply> {
    if (this.closed) return Promise.reject(refusals.storeError(new Error('the registry is closed')));
    return this.thread.run(job, texts);
  }
}

interface Pending {
  readonly resolve: (reply: CheckReply) => void;
  readonly reject: (error: Error) => void;
  /** Answers a `need` with the texts asked for. */
  readonly texts: ((ids: readonly number[]) => ResolvedDefinition[]) | undefined;
}

/** A worker and the jobs it has under way; one per cache configuration in a process. */
class WorkerThread {
  private static readonly threads = new Map<string, WorkerThread>();

  static for(cache: Required<ParsedCacheLimits>): WorkerThread {
    const key = JSON.stringify([cache.maxSchemas, cache.maxTextLength]);
    let thread = WorkerThread.threads.get(key);
    if (thread === undefined) {
      thread = new WorkerThread({ cache });
      WorkerThread.threads.set(key, thread);
    }
    return thread;
  }

  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextJob = 1;

  private constructor(private readonly data: CheckWorkerData) {}

  run(job: Job, texts?: (ids: readonly number[]) => ResolvedDefinition[]): Promise<CheckReply> {
    const worker = this.started();
    const request = { ...job, job: this.nextJob++ } as CheckRequest;
    return new Promise<CheckReply>((resolve, reject) => {
      this.pending.set(request.job, { resolve, reject, texts });
      // Held while jobs are under way (an embedder's process must not exit under an awaited check).
      if (this.pending.size === 1) worker.ref();
      worker.postMessage(request);
    });
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = spawn(this.data);
    worker.unref();
    worker.on('message', (reply: CheckReply) => {
      const pending = this.pending.get(reply.job);
      if (pending === undefined) return;
      if (reply.kind === 'need' && pending.texts !== undefined) {
        const answer: CheckRequest = { kind: 'texts', job: reply.job, texts: pending.texts(reply.ids) };
        worker.postMessage(answer);
        return;
      }
      this.pending.delete(reply.job);
      if (this.pending.size === 0) worker.unref();
      pending.resolve(reply);
    });
    const stopped = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const jobs = [...this.pending.values()];
      this.pending.clear();
      for (const pending of jobs) pending.reject(error);
    };
    worker.on('error', (error) =>
      stopped(new Error(`the schema worker failed: ${error.message}`, { cause: error })),
    );
    worker.on('exit', (code) => stopped(new Error(`the schema worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

function unexpected(reply: CheckReply): Error {
  return new Error(
    reply.kind === 'failed' ? `schema work failed: ${reply.message}` : `unexpected reply ${reply.kind}`,
  );
}

/**
 * The worker, from the compiled module beside this one; when this module runs from its TypeScript
 * source (the tests, under vitest), the worker loads the source through tsx, as vitest loads it.
 */
function spawn(workerData: CheckWorkerData): Worker {
  const options = { workerData, resourceLimits: { maxOldGenerationSizeMb: workerHeapMb } };
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./check-worker.js', import.meta.url), options);
  const source = JSON.stringify(new URL('./check-worker.ts', import.meta.url).href);
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
