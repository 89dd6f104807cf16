/**
 * The scalars of ProtoJSON as its parsers read them: integers from numbers or strings (an exponent
 * form that is an integer included), 64-bit ones held to their type's range, floats with their
 * three names, base64 of either alphabet with or without padding, enums by name or number. And
 * the reader's context (limits, depth, elements) and the errors it throws.
 */
import { WirekitError } from '../../../errors/index.js';
import { type Rule, refusalBy } from '../../../schema/value-rules.js';
import { decodeBase64 } from '../../../util/node-runtime.js';
import { tooDeep, tooManyElements } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { type Slot, UFIXED64, UINT64 } from '../layout.js';
import { parseDuration } from '../protojson-time.js';

export interface ReadContext {
  readonly limits: DecodeLimits;
  readonly ignoreUnknown: boolean;
  depth: number;
  elements: number;
}

/** What an unknown enum name reads as under ignoreUnknownFields: the field is left at its default. */
export const skipped = Symbol('skipped');

export function isObject(json: unknown): json is Record<string, unknown> {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}

export function enter(ctx: ReadContext, levels: number): void {
  ctx.depth += levels;
  if (ctx.depth > ctx.limits.maxDepth) throw tooDeep(0, ctx.limits);
}

export function count(ctx: ReadContext, items: number): void {
  ctx.elements += items;
  if (ctx.elements > ctx.limits.maxElements) throw tooManyElements(0, ctx.limits);
}

export function problem(message: string): WirekitError {
  return new WirekitError('WK_DECODE_SCHEMA_MISMATCH', `${message}.`, { path: [], format: 'json' });
}

export function kept<T>(rule: Rule<never> | undefined, value: T): T {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw problem(refusal.message.replace(/\.$/, ''));
  return value;
}

function describe(json: unknown): string {
  if (json === null) return 'null';
  if (Array.isArray(json)) return 'an array';
  if (typeof json === 'object') return 'an object';
  if (typeof json === 'string')
    return `the string ${JSON.stringify(json.length > 40 ? `${json.slice(0, 40)}…` : json)}`;
  return `${typeof json} ${String(json)}`;
}

export function expected(what: string, json: unknown): WirekitError {
  return problem(`expected ${what}, got ${describe(json)}`);
}

const integerText = /^-?(?:0|[1-9]\d*)$/;
const numberText = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** An integer from a JSON number or string; a bigint where it is past the safe integers. */
export function integerOf(json: unknown): number | bigint | undefined {
  if (typeof json === 'number') return Number.isInteger(json) ? json : undefined;
  if (typeof json !== 'string') return undefined;
  if (integerText.test(json)) {
    const number = Number(json);
    return Number.isSafeInteger(number) ? number : BigInt(json);
  }
  if (!numberText.test(json)) return undefined;
  const number = Number(json);
  return Number.isSafeInteger(number) ? number : undefined;
}

const int64Range = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const uint64Range = [0n, 2n ** 64n - 1n] as const;

export function int64Of(slot: Slot, json: unknown): number | bigint {
  const value = integerOf(json);
  const unsigned = slot.type === UINT64 || slot.type === UFIXED64;
  const [min, max] = unsigned ? uint64Range : int64Range;
  const kind = unsigned ? 'uint64' : 'int64';
  if (value === undefined) throw expected(`an ${kind} as a decimal string or integer`, json);
  const big = BigInt(value);
  if (big < min || big > max) throw expected(`an ${kind}`, json);
  if (slot.asNumber) {
    if (typeof value === 'bigint')
      throw problem(`${kind} ${value} is beyond the safe integers of as: 'number'`);
    return value;
  }
  return big;
}

export function floatOf(json: unknown, single: boolean): number {
  let value: number;
  if (typeof json === 'number') value = json;
  else if (json === 'NaN') return Number.NaN;
  else if (json === 'Infinity') return Number.POSITIVE_INFINITY;
  else if (json === '-Infinity') return Number.NEGATIVE_INFINITY;
  else if (typeof json === 'string' && numberText.test(json)) value = Number(json);
  else throw expected('a number, "NaN", "Infinity" or "-Infinity"', json);
  if (!Number.isFinite(value)) throw expected('a number within a double', json);
  if (!single) return value;
  const single32 = Math.fround(value);
  if (!Number.isFinite(single32)) throw expected('a number within a float', json);
  return single32;
}

const base64Body = /^[A-Za-z0-9+/]*$/;

/** Standard or URL-safe base64, padded or not; undefined for anything else. */
export function bytesOf(text: string): Uint8Array | undefined {
  const unpadded = text.replace(/={1,2}$/, '');
  const normal = unpadded.replaceAll('-', '+').replaceAll('_', '/');
  if (!base64Body.test(normal) || normal.length % 4 === 1) return undefined;
  if (unpadded.length !== text.length && text.length % 4 !== 0) return undefined;
  return decodeBase64(normal + '='.repeat((4 - (normal.length % 4)) % 4));
}

export function enumOf(slot: Slot, json: unknown, ctx: ReadContext): unknown {
  const members = slot.members as readonly string[];
  if (typeof json === 'string') {
    const index = (slot.protoNames as readonly string[]).indexOf(json);
    if (index !== -1) return members[index];
    if (ctx.ignoreUnknown) return skipped;
    throw problem(`${JSON.stringify(json)} is no value of the enum ${slot.kind}`);
  }
  if (typeof json === 'number' && Number.isInteger(json)) {
    const member = slot.numbered !== undefined ? slot.numbered.get(json) : members[json];
    if (member !== undefined) return member;
    if (ctx.ignoreUnknown) return skipped;
    throw problem(`enum number ${json} is no member of ${slot.kind}`);
  }
  throw expected(`a value name of the enum ${slot.kind}`, json);
}

/** A Duration's fields from its text ("1.5s"). */
export function durationOf(json: unknown): { seconds: bigint; nanos: number } {
  const parsed = typeof json === 'string' ? parseDuration(json) : undefined;
  if (parsed === undefined) throw expected('a duration such as "1.5s" within ±315576000000 s', json);
  return parsed;
}

/** A FieldMask's paths from its text: comma-separated, each lowerCamelCase back to snake_case. */
export function fieldMaskOf(json: unknown, ctx: ReadContext): string[] {
  if (typeof json !== 'string') throw expected('a FieldMask as comma-separated paths', json);
  const paths = json === '' ? [] : json.split(',');
  count(ctx, paths.length);
  return paths.map((path) => {
    if (path.includes('_')) throw problem(`the FieldMask path ${JSON.stringify(path)} holds "_"`);
    return path.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  });
}
