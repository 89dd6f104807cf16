/**
 * The refusals of a registry that shares its store with others (one leader writes, the others
 * forward to it), with the codes Confluent's registry answers them with: 50002 when this node could
 * not catch up with the log in time, 50003 when forwarding a write to the leader failed, 50004
 * when no leader is known (an election under way, or the store unreachable). Each is a 500: the
 * client may try again, as Confluent's clients do on these codes.
 */
import { RegistryError } from './registry-error.js';

export const clusterErrorCodes = {
  operationTimeout: 50002,
  forwardingFailed: 50003,
  unknownLeader: 50004,
} as const;

export const clusterRefusals = {
  catchUpTimeout: (ms: number) =>
    new RegistryError(
      clusterErrorCodes.operationTimeout,
      `Operation timed out: this registry did not catch up with the store within ${ms} ms`,
    ),
  forwardingFailed: (leader: string, cause: unknown) =>
    new RegistryError(
      clusterErrorCodes.forwardingFailed,
      `Error while forwarding the request to the leader ${leader}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    ),
  unknownLeader: (why: string) =>
    new RegistryError(clusterErrorCodes.unknownLeader, `Unknown leader: ${why}`),
} as const;
