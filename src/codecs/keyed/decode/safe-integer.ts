/**
 * The rule every schemaless MessagePack and CBOR reader follows for a 64-bit integer form: a safe
 * integer becomes a number, as every wirekit reader gives it, and a wider one stays a bigint (no
 * value is rounded). One function, so the natural readers and msgpackr's records mode agree.
 */

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/** `value` as a number when it is a safe integer, else `value`. */
export function numberIfSafe(value: bigint): number | bigint {
  return value >= -maxSafe && value <= maxSafe ? Number(value) : value;
}
