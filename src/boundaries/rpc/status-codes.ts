/**
 * gRPC's seventeen status codes, as every gRPC runtime numbers and names them, with the name the
 * Connect protocol gives each one on the wire (`invalid_argument`) and the HTTP status a Connect
 * unary reply (and a Connect end-of-stream that fails before any message) answers with. It is data
 * only, with no RPC library behind it, so the error table and its docs can be checked against it.
 *
 * The HTTP statuses are those of the Connect protocol's specification as Connect-ES 2.1.2 sends
 * them (`codeToHttpStatus`); the specification changed four of them in 2024 (cancelled 408 → 499,
 * deadline_exceeded 408 → 504, failed_precondition 412 → 400, unimplemented 404 → 501), and older
 * Connect peers still read a status by the code in the JSON body, not by the HTTP status.
 */

/** Each status by its gRPC name (`google.rpc.Code`), with its number. */
export const grpcStatusCodes = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcStatusName = keyof typeof grpcStatusCodes;
export type GrpcStatusCode = (typeof grpcStatusCodes)[GrpcStatusName];

/** How the Connect protocol carries one status: its code string and its HTTP status. */
interface ConnectForm {
  readonly code: string;
  readonly httpStatus: number;
}

/**
 * OK has no Connect error form: a successful call is a 200 with its message. Connect spells
 * CANCELLED with one l (`canceled`); every other code string is the gRPC name in lower case.
 */
const connectForms: Readonly<Record<Exclude<GrpcStatusName, 'OK'>, ConnectForm>> = {
  CANCELLED: { code: 'canceled', httpStatus: 499 },
  UNKNOWN: { code: 'unknown', httpStatus: 500 },
  INVALID_ARGUMENT: { code: 'invalid_argument', httpStatus: 400 },
  DEADLINE_EXCEEDED: { code: 'deadline_exceeded', httpStatus: 504 },
  NOT_FOUND: { code: 'not_found', httpStatus: 404 },
  ALREADY_EXISTS: { code: 'already_exists', httpStatus: 409 },
  PERMISSION_DENIED: { code: 'permission_denied', httpStatus: 403 },
  RESOURCE_EXHAUSTED: { code: 'resource_exhausted', httpStatus: 429 },
  FAILED_PRECONDITION: { code: 'failed_precondition', httpStatus: 400 },
  ABORTED: { code: 'aborted', httpStatus: 409 },
  OUT_OF_RANGE: { code: 'out_of_range', httpStatus: 400 },
  UNIMPLEMENTED: { code: 'unimplemented', httpStatus: 501 },
  INTERNAL: { code: 'internal', httpStatus: 500 },
  UNAVAILABLE: { code: 'unavailable', httpStatus: 503 },
  DATA_LOSS: { code: 'data_loss', httpStatus: 500 },
  UNAUTHENTICATED: { code: 'unauthenticated', httpStatus: 401 },
};

/** The code string the Connect protocol writes for a failed call with this status. */
export function connectCodeOf(status: Exclude<GrpcStatusName, 'OK'>): string {
  return connectForms[status].code;
}

/** The HTTP status of a Connect reply that fails with this status; 200 for OK. */
export function connectHttpStatusOf(status: GrpcStatusName): number {
  return status === 'OK' ? 200 : connectForms[status].httpStatus;
}
