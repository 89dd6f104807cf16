/**
 * Creating the JetStream stream a producer publishes to (or a consumer reads) when it is missing, so
 * a service and its tests can start against an empty server. An existing stream is left exactly as
 * it is: its owner configured it, and changing retention or subjects behind their back is not a
 * producer's call.
 */
import { WirekitError } from '../../../errors/index.js';
import type { NatsSession } from './connection.js';
import { brokerError } from './connection.js';
import type { NatsStreamSetup } from './stream-setup.js';

const msToNanos = (ms: number) => Math.round(ms * 1_000_000);

/** Creates `name` if the server has no stream of that name; a no-op when it exists. */
export async function ensureStream(
  session: NatsSession,
  name: string,
  setup: NatsStreamSetup,
  defaultSubjects: readonly string[],
): Promise<void> {
  const { jsm, jetstream } = session;
  if (await streamExists(session, name)) return;
  const subjects = [...(setup.subjects ?? defaultSubjects)];
  if (subjects.length === 0) {
    throw brokerError(`stream ${name} is missing and ensureStream names no subjects for it`);
  }
  try {
    await jsm.streams.add({
      name,
      subjects,
      storage: setup.storage === 'memory' ? jetstream.StorageType.Memory : jetstream.StorageType.File,
      ...(setup.duplicateWindowMs === undefined
        ? {}
        : { duplicate_window: msToNanos(setup.duplicateWindowMs) }),
      ...(setup.maxAgeMs === undefined ? {} : { max_age: msToNanos(setup.maxAgeMs) }),
      ...(setup.maxBytes === undefined ? {} : { max_bytes: setup.maxBytes }),
    });
  } catch (error) {
    // Another producer may have created it between the look-up and the add.
    if (await streamExists(session, name).catch(() => false)) return;
    throw brokerError(`cannot create stream ${name}`, error);
  }
}

/**
 * Fails with WK_EVENT_STREAM_MISSING, naming the stream and the two ways to create it, when the
 * server has no stream `name`: without this a producer's publishes would go unanswered (no stream
 * listens on the subject) and be retried until they fail as an unavailable broker.
 */
export async function requireStream(
  session: NatsSession,
  name: string,
  subjects: readonly string[],
): Promise<void> {
  if (await streamExists(session, name)) return;
  const captured = subjects.length === 0 ? '' : ` --subjects '${subjects.join(' ')}'`;
  throw new WirekitError(
    'WK_EVENT_STREAM_MISSING',
    `NATS has no JetStream stream ${name}: pass ensureStream: true to create it, or create it first (nats stream add ${name}${captured})`,
  );
}

/**
 * After a publish to `subject` found no responder: WK_EVENT_STREAM_MISSING naming the subject when
 * no stream captures it, undefined when one does (the failure is then the server's, e.g. JetStream
 * still starting after a restart, and worth retrying). The NATS client reports the missing stream
 * as "JetStream is not enabled", which sent users looking at a server that had it on.
 */
export async function uncapturedSubject(
  { jsm }: NatsSession,
  subject: string,
): Promise<WirekitError | undefined> {
  try {
    await jsm.streams.find(subject);
    return undefined;
  } catch (error) {
    if (!(error instanceof Error && error.name === 'StreamNotFoundError')) return undefined;
  }
  return new WirekitError(
    'WK_EVENT_STREAM_MISSING',
    `NATS has no JetStream stream capturing subject ${subject}: create one (nats stream add NAME --subjects '${subject}'), or name it as stream with ensureStream: true`,
  );
}

async function streamExists({ jsm }: NatsSession, name: string): Promise<boolean> {
  try {
    await jsm.streams.info(name);
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'StreamNotFoundError') return false;
    throw brokerError(`cannot look up stream ${name}`, error);
  }
}
