/**
 * The registry's refusals, each carrying what Confluent's API answers for it: the `error_code` of
 * the error body and the HTTP status it rides on, beside the WirekitError code a caller in-process
 * branches on. The domain (registry.ts) throws these without knowing about HTTP; the server only
 * copies `status` and `errorCode` out, so the two can never disagree on which refusal is which.
 */
import type { ErrorCode } from '../../../errors/codes.js';
import { WirekitError } from '../../../errors/index.js';
import { registryErrorCodes } from './api.js';

/**
 * Confluent's codes that the committed contract (api.ts) does not list but the server answers,
 * with Confluent's meaning: a version soft-deleted twice, a version purged before it was soft-deleted,
 * a subject without a level or mode of its own, a mode it does not know, an operation its mode (or
 * its exhausted ids) forbids, a version other schemas reference, a subject name with control
 * characters, a user whose role does not allow the operation (as Confluent's RBAC answers it);
 * and the plain HTTP statuses Confluent's REST layer uses as codes for requests no route reads.
 */
export const moreRegistryErrorCodes = {
  versionSoftDeleted: 40406,
  versionNotSoftDeleted: 40407,
  subjectCompatibilityNotConfigured: 40408,
  subjectModeNotConfigured: 40409,
  invalidMode: 42204,
  operationNotPermitted: 42205,
  referenceExists: 42206,
  invalidSubject: 42208,
  forbidden: 40301,
  unauthorized: 401,
  badRequest: 400,
  routeNotFound: 404,
  methodNotAllowed: 405,
  bodyTooLarge: 413,
  unprocessable: 422,
  unsupportedMediaType: 415,
  internal: 500,
} as const;

const codes = { ...registryErrorCodes, ...moreRegistryErrorCodes };

/** The WirekitError code of a Confluent error code, by its HTTP class. */
function wirekitCodeOf(errorCode: number): ErrorCode {
  if (errorCode === codes.incompatibleSchema) return 'WK_REGISTRY_INCOMPATIBLE';
  if (errorCode === codes.invalidSchema) return 'WK_REGISTRY_SCHEMA_INVALID';
  if (errorCode === codes.unauthorized || errorCode === codes.forbidden) return 'WK_REGISTRY_AUTH';
  if (errorCode === codes.operationNotPermitted) return 'WK_REGISTRY_NOT_PERMITTED';
  if (errorCode >= 40400 && errorCode < 40500) return 'WK_REGISTRY_NOT_FOUND';
  if (errorCode >= 500) return 'WK_REGISTRY_UNAVAILABLE';
  return 'WK_REGISTRY_REQUEST';
}

/** The HTTP status of a Confluent error code: its first three digits (409 and the plain statuses are their own). */
function statusOf(errorCode: number): number {
  return errorCode >= 1000 ? Math.floor(errorCode / 100) : errorCode;
}

export class RegistryError extends WirekitError {
  override readonly name: string = 'RegistryError';
  /** Confluent's `error_code`. */
  readonly errorCode: number;
  /** The HTTP status Confluent answers it with. */
  readonly status: number;

  constructor(errorCode: number, message: string, options: { cause?: unknown } = {}) {
    super(wirekitCodeOf(errorCode), message, options);
    this.errorCode = errorCode;
    this.status = statusOf(errorCode);
  }
}

export function isRegistryError(error: unknown): error is RegistryError {
  return error instanceof RegistryError;
}

/** Confluent's messages, worded as its server words them so that tools matching on them still work. */
export const refusals = {
  subjectNotFound: (subject: string) =>
    new RegistryError(codes.subjectNotFound, `Subject '${subject}' not found.`),
  versionNotFound: (version: number | string) =>
    new RegistryError(codes.versionNotFound, `Version ${version} not found.`),
  schemaNotFound: (id?: number | string) =>
    new RegistryError(codes.schemaNotFound, id === undefined ? 'Schema not found' : `Schema ${id} not found`),
  subjectSoftDeleted: (subject: string) =>
    new RegistryError(
      codes.subjectSoftDeleted,
      `Subject '${subject}' was soft deleted. Set permanent=true to delete permanently`,
    ),
  subjectNotSoftDeleted: (subject: string) =>
    new RegistryError(
      codes.subjectNotSoftDeleted,
      `Subject '${subject}' was not deleted first before being permanently deleted`,
    ),
  versionSoftDeleted: (subject: string, version: number) =>
    new RegistryError(
      codes.versionSoftDeleted,
      `Subject '${subject}' Version ${version} was soft deleted. Set permanent=true to delete permanently`,
    ),
  versionNotSoftDeleted: (subject: string, version: number) =>
    new RegistryError(
      codes.versionNotSoftDeleted,
      `Subject '${subject}' Version ${version} was not deleted first before being permanently deleted`,
    ),
  compatibilityNotConfigured: (subject: string) =>
    new RegistryError(
      codes.subjectCompatibilityNotConfigured,
      `Subject '${subject}' does not have subject-level compatibility configured`,
    ),
  incompatible: (subject: string, messages: readonly string[]) =>
    new RegistryError(
      codes.incompatibleSchema,
      `Schema being registered is incompatible with an earlier schema for subject "${subject}", details: [${messages.join(', ')}]`,
    ),
  invalidSchema: (why: string, cause?: unknown) =>
    new RegistryError(codes.invalidSchema, `Invalid schema: ${why}`, { cause }),
  invalidVersion: (version: string) =>
    new RegistryError(
      codes.invalidVersion,
      `The specified version '${version.length > 40 ? `${version.slice(0, 40)}…` : version}' is not a valid version id. Allowed values are between [1, 2^31-1] and the string "latest"`,
    ),
  invalidCompatibilityLevel: () =>
    new RegistryError(
      codes.invalidCompatibilityLevel,
      'Invalid compatibility level. Valid values are none, backward, forward, full, backward_transitive, forward_transitive, and full_transitive',
    ),
  referenceExists: (subject: string, version: number, ids: readonly number[]) =>
    new RegistryError(
      codes.referenceExists,
      `One or more references exist to the schema {subject=${subject}, version=${version}}: ids ${ids.join(', ')}`,
    ),
  invalidSubject: (why: string) => new RegistryError(codes.invalidSubject, `Invalid subject: ${why}`),
  /** Confluent's words name the subject; a registry-wide refusal names none. */
  readOnly: (subject: string | undefined) =>
    new RegistryError(
      codes.operationNotPermitted,
      subject === undefined ? 'The registry is in read-only mode' : `Subject ${subject} is in read-only mode`,
    ),
  /** Confluent's ids and versions are Java ints: past 2^31-1 no client could hold them. */
  exhausted: (what: string) =>
    new RegistryError(
      codes.operationNotPermitted,
      `Operation not permitted: ${what} would pass 2147483647 (2^31-1), the largest id or version the API carries`,
    ),
  forbidden: (username: string, what: string) =>
    new RegistryError(codes.forbidden, `User ${username} is denied this operation: ${what}`),
  invalidMode: () =>
    new RegistryError(codes.invalidMode, 'Invalid mode. Valid values are READWRITE and READONLY'),
  modeNotConfigured: (subject: string) =>
    new RegistryError(
      codes.subjectModeNotConfigured,
      `Subject '${subject}' does not have subject-level mode configured`,
    ),
  storeError: (cause: unknown) =>
    new RegistryError(
      codes.storeError,
      `Error in the backend data store: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    ),
} as const;
