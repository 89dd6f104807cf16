/**
 * The json kind (`t.json()`): what a JSON value is, one rule for `validate`, every encoder and every
 * decoder, in every format (docs/values.md). A JSON value is
 *
 * - null, a boolean, a finite number (`-0` included: it is written as `0`, as JSON.stringify does),
 *   or a string;
 * - an array of JSON values, without holes or `undefined` items (JSON.stringify would write null);
 * - a plain object (its prototype `Object.prototype` or null) whose own enumerable keys are none of
 *   `__proto__`, `constructor`, `prototype` (every wirekit decoder refuses them, since code that
 *   copies a decoded value by assignment could reach a prototype through them), and whose values
 *   are JSON values, never `undefined` (JSON.stringify would drop the key).
 *
 * Anything else is refused: NaN and the infinities, `undefined`, bigints, functions, symbols, Dates
 * (JSON.stringify would write ISO text, which reads back as a string), byte arrays, Maps, class
 * instances. Each array and object is one level of nesting, counted from the containers around the
 * value, so `maxDepth` means the same for a json field as for the rest of a value.
 *
 * `walkJson` is the one walk over such a value: `validate` reports every problem it finds, encoders
 * refuse the first (before JSON.stringify runs), and the JSON codec walks what JSON.parse returned
 * for the problems text can hold (unsafe keys, infinities from `1e400`, depth), counting keys on
 * the way. It is iterative, so a deep or cyclic value meets maxDepth and never the call stack, and
 * it visits keys and items in order, so the first problem is the same in every format.
 */
import { describeValue, formatPath, type Path, WirekitError } from '../errors/index.js';
import { isUnsafeKey } from '../util/unsafe-keys.js';

export type JsonProblemKind = 'not_json' | 'not_finite' | 'unsafe_key' | 'too_deep';

export interface JsonProblem {
  readonly kind: JsonProblemKind;
  /**
   * Where, from the json value itself: the key's path for a problem of a key, the container's for
   * `too_deep` (the first one past the limit).
   */
  readonly path: Path;
  /** The offending value (the key itself for a problem of a key). */
  readonly value: unknown;
}

export interface JsonWalkOptions {
  /** Containers around the value: its own array or object is at level depth + 1. */
  readonly depth: number;
  readonly maxDepth: number;
  /**
   * Whether the leaves are checked too (default true). False for schemaless JSON text, where a
   * parsed value is JSON by construction and only its keys and nesting are wirekit's business.
   */
  readonly values?: boolean;
  /**
   * Called as each array or object is entered, with its items or members, before they are walked:
   * where a decoder counts them against maxElements (and throws past it), as it counts every
   * container of the value at its header.
   */
  readonly count?: (items: number) => void;
}

/** What a walk counted: array items and object members (maxElements), and object keys. */
export interface JsonTotals {
  elements: number;
  keys: number;
}

/**
 * Walks `value` in order. Without `report`, stops at the first problem and returns it; with it,
 * calls it for each problem and goes on while it returns true (a problem's own subtree is not
 * entered). Counts what it enters into `totals`, when given.
 */
export function walkJson(
  value: unknown,
  options: JsonWalkOptions,
  totals?: JsonTotals,
  report?: (problem: JsonProblem) => boolean,
): JsonProblem | undefined {
  let first: JsonProblem | undefined;
  /** Records a problem; true when the walk is to stop. */
  const problem = (kind: JsonProblemKind, path: Path, offending: unknown): boolean => {
    const found = { kind, path, value: offending };
    if (report === undefined) {
      first = found;
      return true;
    }
    first ??= found;
    return !report(found);
  };
  const { depth, maxDepth, count } = options;
  const values = options.values !== false;
  if (typeof value !== 'object' || value === null) {
    const kind = values ? leafProblem(value) : undefined;
    if (kind !== undefined) problem(kind, [], value);
    return first;
  }
  // The open containers, outermost first: the node, its keys (undefined for an array), the next index.
  const nodes: object[] = [];
  const keyLists: (string[] | undefined)[] = [];
  const indexes: number[] = [];
  let top = -1;
  const pathTo = (last?: string | number): Path => {
    const path: (string | number)[] = [];
    for (let f = 0; f <= top; f++) {
      const keys = keyLists[f];
      const at = (indexes[f] as number) - 1;
      path.push(keys === undefined ? at : (keys[at] as string));
    }
    if (last !== undefined) path.push(last);
    return path;
  };
  /** Opens `node` (at level `depth + top + 2`) as the innermost container, or reports why not. */
  const open = (node: object): boolean => {
    if (depth + top + 2 > maxDepth) return problem('too_deep', pathTo(), node);
    let keys: string[] | undefined;
    if (Array.isArray(node)) {
      if (totals !== undefined) totals.elements += node.length;
      count?.(node.length);
    } else {
      const prototype = Object.getPrototypeOf(node);
      if (prototype !== Object.prototype && prototype !== null) return problem('not_json', pathTo(), node);
      keys = Object.keys(node);
      if (totals !== undefined) {
        totals.elements += keys.length;
        totals.keys += keys.length;
      }
      count?.(keys.length);
    }
    top++;
    nodes[top] = node;
    keyLists[top] = keys;
    indexes[top] = 0;
    return false;
  };
  if (open(value)) return first;
  while (top >= 0) {
    const node = nodes[top] as Record<string | number, unknown>;
    const keys = keyLists[top];
    const index = indexes[top] as number;
    let child: unknown;
    if (keys === undefined) {
      if (index >= (node as unknown as unknown[]).length) {
        top--;
        continue;
      }
      indexes[top] = index + 1;
      child = node[index];
    } else {
      if (index >= keys.length) {
        top--;
        continue;
      }
      indexes[top] = index + 1;
      const key = keys[index] as string;
      if (isUnsafeKey(key)) {
        if (problem('unsafe_key', pathTo(), key)) return first;
        continue;
      }
      child = node[key];
    }
    if (typeof child === 'object' && child !== null) {
      if (open(child)) return first;
      continue;
    }
    if (!values) continue;
    const kind = leafProblem(child);
    if (kind !== undefined && problem(kind, pathTo(), child)) return first;
  }
  return first;
}

/** What is wrong with a value that is not an array or object, if anything. */
function leafProblem(value: unknown): JsonProblemKind | undefined {
  switch (typeof value) {
    case 'string':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : 'not_finite';
    case 'boolean':
      return undefined;
    case 'object':
      return value === null ? undefined : 'not_json';
    default:
      return 'not_json';
  }
}

/**
 * The JSON text of a json value found `depth` containers deep, for every format that writes json
 * values as text (JSON itself and FlatBuffers; Arrow walks with `walkJson`): the value is checked
 * first, so JSON.stringify never changes it unannounced (NaN to null, a Date to text, a dropped key).
 */
export function jsonValueText(value: unknown, depth: number, maxDepth: number): string {
  const problem = walkJson(value, { depth, maxDepth });
  if (problem !== undefined) throw jsonEncodeError(problem, maxDepth);
  return JSON.stringify(value);
}

/**
 * The error an encoder throws for a json value's problem: WK_VALIDATION_FAILED for what is no JSON
 * value (as `validate` reports it), WK_ENCODE_UNSUPPORTED for a valid-looking value no format
 * carries (an unsafe key), WK_LIMIT_DEPTH past maxDepth. Its path starts at the
 * json value; the format puts the field's path in front.
 */
export function jsonEncodeError(problem: JsonProblem, maxDepth: number): WirekitError {
  switch (problem.kind) {
    case 'not_json':
      return atProblem(
        problem,
        'WK_VALIDATION_FAILED',
        `expected a JSON value, got ${describeValue(problem.value)}.`,
      );
    case 'not_finite':
      return atProblem(
        problem,
        'WK_VALIDATION_FAILED',
        `expected a JSON value, got ${problem.value} (JSON numbers are finite).`,
      );
    case 'unsafe_key':
      return atProblem(
        problem,
        'WK_ENCODE_UNSUPPORTED',
        `the key ${JSON.stringify(problem.value)} is refused by every wirekit decoder, so it is not written.`,
      );
    case 'too_deep':
      return atProblem(
        problem,
        'WK_LIMIT_DEPTH',
        `the value nests deeper than maxDepth (${maxDepth}); is it cyclic?`,
      );
  }
}

/**
 * Holds a json value that a format carries as JSON text (Protocol Buffers, Avro, FlatBuffers,
 * Arrow), as JSON.parse made it from the text at byte `offset`, to the json kind's rule: its
 * nesting continues from `depth`, `count` counts its containers' items against the decode's
 * maxElements, and an unsafe key or a number past float64 is refused with jsonDecodeError's codes.
 */
export function checkParsedJson(
  value: unknown,
  options: { readonly depth: number; readonly maxDepth: number; readonly count: (items: number) => void },
  offset: number,
): void {
  const problem = walkJson(value, options);
  if (problem !== undefined) {
    throw jsonDecodeError(problem, options.maxDepth, 'WK_DECODE_SCHEMA_MISMATCH', offset);
  }
}

/**
 * The error a decoder throws for what a parsed json value holds: WK_DECODE_UNSAFE_KEY, WK_LIMIT_DEPTH,
 * or `code` (the decoder's schema-mismatch code) for an infinite number or anything else. With a
 * `path` for the JSON codec, with the text's byte `offset` for the formats that carry JSON text.
 */
export function jsonDecodeError(
  problem: JsonProblem,
  maxDepth: number,
  code: 'WK_DECODE_SCHEMA_MISMATCH' | 'WK_JSON_VALUE_INVALID',
  offset?: number,
): WirekitError {
  const where = offset === undefined ? '' : ` (at byte ${offset})`;
  const options = { path: problem.path, offset };
  const message = (text: string) =>
    problem.path.length === 0 ? `${text}${where}.` : `${formatPath(problem.path)}: ${text}${where}.`;
  switch (problem.kind) {
    case 'unsafe_key':
      return new WirekitError(
        'WK_DECODE_UNSAFE_KEY',
        message(`the key ${JSON.stringify(problem.value)} is refused`),
        options,
      );
    case 'too_deep':
      return new WirekitError(
        'WK_LIMIT_DEPTH',
        message(`values nest deeper than maxDepth (${maxDepth})`),
        options,
      );
    case 'not_finite':
      return new WirekitError(code, message('a number is beyond the range of a float64'), options);
    case 'not_json':
      return new WirekitError(
        code,
        message(`expected a JSON value, got ${describeValue(problem.value)}`),
        options,
      );
  }
}

function atProblem(
  problem: JsonProblem,
  code: 'WK_VALIDATION_FAILED' | 'WK_ENCODE_UNSUPPORTED' | 'WK_LIMIT_DEPTH',
  text: string,
): WirekitError {
  const message = problem.path.length === 0 ? text : `${formatPath(problem.path)}: ${text}`;
  return new WirekitError(code, message, { path: problem.path });
}
