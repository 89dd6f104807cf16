/**
 * An `anyOf`/`oneOf` whose branches are all texts told apart only by what their text looks like
 * (a pattern, a format, a string const), as arktype writes `string.uuid`: a pattern and the nil and
 * max uuids as consts. As an untagged union it would be refused (two text branches a value could
 * both match); as one string whose pattern any branch's pattern satisfies, it judges every text as
 * the union does. `oneOf` reads the same only where no text matches two branches, which the
 * importer cannot tell from patterns, so only `anyOf` is read this way.
 */
import * as t from '../builders.js';
import type { JsonValue, Schema } from '../types.js';
import { isNullOnly } from './choices.js';
import {
  build,
  childPointer,
  importError,
  isAnnotation,
  isJsonObject,
  type JsonObject,
  refuseUnread,
} from './json-document.js';
import { bothPatterns, stringFormatPatterns } from './string-formats.js';

const branchKeywords = ['type', 'pattern', 'format', 'const'];

/** Whether a branch says nothing of a text but what it looks like. */
function isTextBranch(branch: JsonValue): branch is JsonObject {
  if (!isJsonObject(branch)) return false;
  if (branch.type !== undefined && branch.type !== 'string') return false;
  if (branch.const !== undefined && (typeof branch.const !== 'string' || branch.pattern !== undefined))
    return false;
  if (branch.type === undefined && branch.const === undefined) return false;
  return Object.keys(branch).every((keyword) => branchKeywords.includes(keyword) || isAnnotation(keyword));
}

/** The pattern of a format wirekit reads, or a refusal naming it. */
function formatPattern(format: JsonValue | undefined, pointer: string): string | undefined {
  if (format === undefined) return undefined;
  if (typeof format !== 'string' || !Object.hasOwn(stringFormatPatterns, format)) {
    throw importError(
      childPointer(pointer, 'format'),
      `the string format ${JSON.stringify(format)} is not read; drop the format and say what it means with a pattern.`,
    );
  }
  return stringFormatPatterns[format];
}

function branchPattern(branch: JsonObject, pointer: string): string {
  const own =
    typeof branch.const === 'string'
      ? `^${branch.const.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`
      : typeof branch.pattern === 'string'
        ? branch.pattern
        : '';
  try {
    new RegExp(own, 'u');
  } catch {
    throw importError(
      childPointer(pointer, 'pattern'),
      'the pattern is not a valid regular expression (with the u flag).',
    );
  }
  const format = formatPattern(branch.format, pointer);
  return format === undefined ? own : bothPatterns(format, own);
}

/**
 * The `enum` an `anyOf` or `oneOf` of distinct string consts says (valibot's union of literals), with
 * `null` where a branch is null alone: one of several distinct texts, which `oneOf` and `anyOf` accept
 * alike. Undefined for any other node.
 */
export function constChoice(node: JsonObject): JsonObject | undefined {
  const branches = node.anyOf ?? node.oneOf;
  if (!Array.isArray(branches) || ('anyOf' in node && 'oneOf' in node)) return undefined;
  const texts = branches.filter((branch) => !isNullOnly(branch));
  const consts = texts.map((branch) =>
    isJsonObject(branch) &&
    typeof branch.const === 'string' &&
    Object.keys(branch).every(
      (keyword) =>
        keyword === 'const' || (keyword === 'type' && branch.type === 'string') || isAnnotation(keyword),
    )
      ? branch.const
      : undefined,
  );
  if (texts.length < 2 || consts.some((value) => value === undefined) || new Set(consts).size < consts.length)
    return undefined;
  const { anyOf: _any, oneOf: _one, ...rest } = node;
  return {
    ...rest,
    enum: texts.length < branches.length ? [...(consts as string[]), null] : (consts as string[]),
  };
}

/**
 * The string an `anyOf` of text branches is, or undefined when its branches are not all texts
 * (the caller then reads it as a union). `format` beside the `anyOf` must hold as well.
 */
export function textChoice(node: JsonObject, pointer: string): Schema | undefined {
  const branches = node.anyOf;
  if (!Array.isArray(branches)) return undefined;
  const texts = branches.filter((branch) => !isNullOnly(branch));
  if (texts.length < 2 || !texts.every(isTextBranch)) return undefined;
  refuseUnread(node, ['anyOf', 'format'], pointer, 'is not read next to an anyOf of texts.');
  const at = childPointer(pointer, 'anyOf');
  const alternatives = texts.map(
    (branch) => `(?=[\\s\\S]*?(?:${branchPattern(branch, childPointer(at, branches.indexOf(branch)))}))`,
  );
  const any = `^(?:${alternatives.join('|')})`;
  const format = formatPattern(node.format, pointer);
  const text = build(pointer, () =>
    t.string({ pattern: format === undefined ? any : bothPatterns(format, any) }),
  );
  return texts.length < branches.length ? t.nullable(text) : text;
}
