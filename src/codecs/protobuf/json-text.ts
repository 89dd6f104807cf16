/**
 * The `json` kind travels as a proto `string` holding JSON text. JSON.parse alone would let
 * untrusted text through unbounded, so the parsed value is held to the json kind's rule and the
 * reader's limits (checkParsedJson). The text
 * written is checked first by the json kind's one rule (jsonValueText), since JSON.stringify alone
 * would change data unannounced.
 */
import { WirekitError } from '../../errors/index.js';
import { checkParsedJson, jsonValueText } from '../../schema/json-kind.js';
import { mismatch } from '../core/errors.js';
import type { ProtobufReader } from './decode/reader.js';

/**
 * The JSON text of a json field's value (jsonValueText). A problem inside the value keeps its place
 * in the message (`extra: n: expected a JSON value, ...`) but its path ends at the json field, as
 * this codec has always reported it (test/codecs/protobuf/codec.test.ts pins it; the other formats' paths
 * go on into the value).
 */
export function jsonFieldText(value: unknown, depth: number, maxDepth: number): string {
  try {
    return jsonValueText(value, depth, maxDepth);
  } catch (error) {
    if (error instanceof WirekitError && error.path !== undefined && error.path.length > 0) {
      throw new WirekitError(error.code, error.message, { path: [], format: error.format });
    }
    throw error;
  }
}

/**
 * Parses JSON text found at byte `offset`, `depth` levels deep. The parsed value counts against the
 * reader's limits like any decoded value: its nesting against maxDepth, its items and members
 * against maxElements; object keys that could reach a prototype are refused.
 */
export function parseJsonText(reader: ProtobufReader, text: string, offset: number, depth: number): unknown {
  let value: unknown;
  try {
    value = text === '' ? null : JSON.parse(text);
  } catch {
    throw mismatch(offset, 'a json field does not hold JSON text');
  }
  checkParsedJson(
    value,
    { depth, maxDepth: reader.limits.maxDepth, count: (items) => reader.countElements(items) },
    offset,
  );
  return value;
}
