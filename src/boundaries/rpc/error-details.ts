/**
 * The error details wirekit puts in a failed call's status, as the two standard messages of
 * `google/rpc/error_details.proto` rather than a message of wirekit's own: every gRPC runtime (Go's
 * errdetails, Java's and Python's `google.rpc` packages, Connect's clients) already knows them, so a
 * client in any language reads wirekit's code, path and validation issues without wirekit's .proto.
 *
 * The schemas below carry the same field numbers as the standard messages (1, 2, 3 in declaration
 * order), so wirekit's Protocol Buffers codec writes the bytes of a `google.protobuf.Any` value.
 */
import { type Infer, t } from '../../schema/index.js';

/** The domain of every ErrorInfo wirekit writes: its `reason` is then a wirekit error code. */
export const wirekitErrorDomain = 'wirekit';

/** `google.rpc.ErrorInfo`: wirekit's code as the reason; path, format and offset as metadata. */
export const ErrorInfo = t.object('ErrorInfo', {
  reason: t.string(),
  domain: t.string(),
  metadata: t.map(t.string(), t.string()),
});
export type ErrorInfo = Infer<typeof ErrorInfo>;

/** `google.rpc.BadRequest.FieldViolation`: one validation issue. */
const FieldViolation = t.object('FieldViolation', {
  /** The path of the value at fault, as `orders[2].price` (empty for the root). */
  field: t.string(),
  description: t.string(),
  /** The code in upper case, as the standard asks of reasons: `OUT_OF_RANGE`. */
  reason: t.string(),
});

/** `google.rpc.BadRequest`: every validation issue of a request. */
export const BadRequest = t.object('BadRequest', {
  fieldViolations: t.array(FieldViolation),
});
export type BadRequest = Infer<typeof BadRequest>;

/**
 * One detail of a status: the full name of its message (the type URL is
 * `type.googleapis.com/<type>`) and its value in wirekit's shape, for the transport to encode
 * with the schema its type names.
 */
export type RpcErrorDetail =
  | { readonly type: 'google.rpc.ErrorInfo'; readonly value: ErrorInfo }
  | { readonly type: 'google.rpc.BadRequest'; readonly value: BadRequest };
