/**
 * A follower's writes, sent on to the leader over HTTP as Confluent's registry forwards them: the
 * same method, path and query, the client's credentials and body, and the leader's answer handed
 * back as it came. While no leader is known (an election under way after the leader died), the
 * write waits for one, up to a bound; a leader that cannot be reached, or that answers that it no
 * longer leads, is tried again until the bound. Trying a write again is safe for registrations
 * (the same schema gets the same id and version); a delete tried again after the leader applied it
 * answers that the version is already deleted.
 *
 * An `https://` leader's certificate is checked against Node's trusted authorities, or against the
 * ones given as `leaderCa` (a cluster's own CA, with no need to trust it process-wide).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { clusterErrorCodes, clusterRefusals } from './cluster-errors.js';
import type { SharedLog } from './store.js';

/** Marks a request one registry forwarded to another, which never forwards it further. */
export const forwardedHeader = 'x-wirekit-forwarded';

export interface ForwardRequest {
  readonly method: string;
  /** The path and query, as the client sent them. */
  readonly target: string;
  readonly authorization: string | undefined;
  /** The body as JSON text (undefined for none). */
  readonly body: string | undefined;
}

export interface ForwardAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

/** PEM text or bytes, as node:https takes them. */
export type LeaderCa = string | Buffer | readonly (string | Buffer)[];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One HTTP(S) exchange with the leader: its status, content type and body text. */
function exchange(
  url: URL,
  init: { method: string; headers: Record<string, string>; body: string | undefined; signal: AbortSignal },
  ca: LeaderCa | undefined,
): Promise<ForwardAnswer> {
  const options = { method: init.method, headers: init.headers, signal: init.signal };
  return new Promise((resolve, reject) => {
    const onResponse = (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 500,
          contentType: response.headers['content-type'] ?? 'application/json',
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    };
    const sent =
      url.protocol === 'https:'
        ? httpsRequest(url, { ...options, ...(ca === undefined ? {} : { ca: [ca].flat() }) }, onResponse)
        : httpRequest(url, options, onResponse);
    sent.on('error', reject);
    sent.end(init.body);
  });
}

/**
 * The leader's answer to the request, or `undefined` when this registry is the leader (and should
 * answer itself). Throws 50004 when no leader turned up within `timeoutMs`, 50003 when the last
 * try failed.
 */
export async function forwardToLeader(
  shared: SharedLog,
  request: ForwardRequest,
  timeoutMs: number,
  leaderCa?: LeaderCa,
): Promise<ForwardAnswer | undefined> {
  const deadline = Date.now() + timeoutMs;
  let lastFailure: { leader: string; cause: unknown } | undefined;
  while (Date.now() < deadline) {
    const leader = shared.leader();
    if (leader?.self === true) return undefined;
    if (leader === undefined) {
      await pause(100);
      continue;
    }
    try {
      // Appended to the leader's origin, never resolved against it: a target such as
      // `//elsewhere/x` must not send the client's credentials to another host.
      const path = request.target.startsWith('/') ? request.target : `/${request.target}`;
      const answer = await exchange(
        new URL(`${new URL(leader.url).origin}${path}`),
        {
          method: request.method,
          headers: {
            accept: 'application/vnd.schemaregistry.v1+json, application/json',
            [forwardedHeader]: '1',
            ...(request.body === undefined
              ? {}
              : {
                  'content-type': 'application/json',
                  'content-length': String(Buffer.byteLength(request.body)),
                }),
            ...(request.authorization === undefined ? {} : { authorization: request.authorization }),
          },
          body: request.body,
          signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
        },
        leaderCa,
      );
      // The one we took for the leader no longer leads (it lost an election we have not seen yet).
      if (answer.status === 500 && answer.text.includes(`"error_code":${clusterErrorCodes.unknownLeader}`)) {
        lastFailure = { leader: leader.url, cause: new Error(answer.text) };
        await pause(100);
        continue;
      }
      return answer;
    } catch (cause) {
      // Killed, or not listening yet: the election will move on, and the write with it.
      lastFailure = { leader: leader.url, cause };
      await pause(200);
    }
  }
  if (lastFailure === undefined) throw clusterRefusals.unknownLeader(`none elected within ${timeoutMs} ms`);
  throw clusterRefusals.forwardingFailed(lastFailure.leader, lastFailure.cause);
}
