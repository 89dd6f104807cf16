/**
 * JSON: application/json for single values, application/x-ndjson (one value per line) for
 * sequences. Without a schema it is native JSON.parse/JSON.stringify plus wirekit's safety checks;
 * with one, values are written and read in the JSON form of values (docs/schema-json.md). Every
 * text is held to the decode limits around JSON.parse (decode/text-checks.ts): those on size before
 * it builds anything, nesting and keys after.
 */

import { WirekitError } from '../../errors/index.js';
import { assert, type Schema } from '../../schema/index.js';
import { type ReadAllocation, type ReadContext, read, readContext } from '../../schema/json-value.js';
import { childrenOf } from '../../schema/walk.js';
import { type AllocationBudget, budgetOf, cost } from '../core/budget.js';
import { type Codec, type CodecOptions, rejectsUnknownKeys } from '../core/codec.js';
import type { FormatEntry } from '../core/format-entry.js';
import { checkInputSize, type DecodeLimits, resolveLimits } from '../core/limits.js';
import { jsonMediaTypes, ndjsonMediaTypes } from '../core/media-types.js';
import { decodeFramesOf, encodeSequenceOf } from '../core/sequence.js';
import { decodeFrames, encodeValues, type FrameMeasure } from '../core/stream.js';
import { compileJsonReader } from './decode/compiled.js';
import { fitsLimits, keyCount, maxHeapPerChar } from './decode/scan.js';
import { checkFinite, checkParsed, jsonText, parseJson } from './decode/text.js';
import { fullScan, noExtras, type ReaderExtras, type TextCheckOptions } from './decode/text-checks.js';
import { compileJsonWriter } from './encode/compiled.js';
import { checkJsonable } from './encode/jsonable.js';
import { writeJson } from './encode/schema-writer.js';

export type { Codec, CodecOptions } from '../core/codec.js';
export type { FormatEntry } from '../core/format-entry.js';
export type { DecodeLimits } from '../core/limits.js';
export { jsonMediaTypes, ndjsonMediaTypes };

export interface JsonCodecOptions extends CodecOptions {
  /** How bigints are written: "strings" (default; exact in every JSON parser) or bare numbers. */
  readonly int64?: 'string' | 'number';
  /**
   * Schemaless only. true (default): refuse values JSON.stringify would silently change (NaN, Map,
   * typed arrays, undefined in arrays; see checkJsonable) and the keys every decoder refuses.
   * false: exactly JSON.stringify, ~8 % faster, which checks none of it.
   */
  readonly strict?: boolean;
}

const encoder = new TextEncoder();

export function createJsonCodec<T = unknown>(options: JsonCodecOptions = {}): Codec<T> {
  const { schema } = options;
  const strict = options.strict !== false;
  const limits = resolveLimits(options.limits);
  const writeOptions = { int64: options.int64 ?? 'string', maxDepth: limits.maxDepth } as const;
  const readOptions = {
    maxDepth: limits.maxDepth,
    unknownKeys: rejectsUnknownKeys(options) ? 'reject' : 'ignore',
    errorCode: 'WK_DECODE_SCHEMA_MISMATCH',
    inPlace: true,
    surrogates: false,
  } as const;

  const compile = schema !== undefined && options.compile !== false;
  /** The schema's generated writer (encode/compiled.ts), unless compilation is off or refused. */
  const writer = compile ? compileJsonWriter(schema, writeOptions) : undefined;
  /** Its generated reader (decode/compiled.ts), refused for the same schemas. */
  const reader = compile ? compileJsonReader(schema) : undefined;
  const readWith: ReadContext = {
    ...readContext(readOptions),
    maxStringBytes: limits.maxStringBytes,
    maxBytesLength: limits.maxBytesLength,
    maxElements: limits.maxElements,
  };

  const toText =
    schema === undefined
      ? (value: T): string => {
          if (strict) checkJsonable(value, limits.maxDepth);
          let text: string | undefined;
          try {
            text = JSON.stringify(value);
          } catch (cause) {
            // A bigint or a cycle: JSON has no way to write either.
            throw new WirekitError(
              'WK_ENCODE_UNSUPPORTED',
              `JSON cannot carry this value: ${(cause as Error).message}`,
              {
                cause,
              },
            );
          }
          if (text === undefined)
            throw new WirekitError(
              'WK_ENCODE_UNSUPPORTED',
              'JSON cannot carry undefined, a function or a symbol.',
            );
          return text;
        }
      : (value: T): string => {
          if (options.validate) assert(schema, value);
          return writer !== undefined ? writer(value, writeOptions) : writeJson(schema, value, writeOptions);
        };

  const extras = schema === undefined ? noExtras : readerExtras(schema);
  const schemaless = schema === undefined;
  /** JSON.parse's most heap per character with what the reader adds (`maxHeapPerChar`), made once. */
  const heapPerChar = maxHeapPerChar(extras.perString, extras.perContainer);
  /** A budget nothing is charged to: `fitsLimits` asks whether a text fits a decode's whole budget. */
  const unspent = budgetOf(limits);
  const checksOf = (budget: AllocationBudget): TextCheckOptions => ({ limits, budget, schemaless, extras });
  /** The schema reader's context for one decode, every field written in one order (one shape). */
  const contextOf = (text: string, longStrings: boolean, allocation: ReadAllocation | undefined) =>
    ({
      inPlace: readWith.inPlace,
      maxDepth: readWith.maxDepth,
      rejectUnknown: readWith.rejectUnknown,
      code: readWith.code,
      // JSON.parse makes a lone surrogate only from an escape of one; a text without any (almost
      // every text) needs no check of each string it holds.
      surrogates: mayHoldSurrogates(text),
      maxStringBytes: readWith.maxStringBytes,
      maxBytesLength: readWith.maxBytesLength,
      maxElements: readWith.maxElements,
      longStrings,
      tally: { elements: 0, keys: 0 },
      allocation,
    }) satisfies ReadContext;
  const readParsed = (parsed: unknown, context: ReadContext): unknown =>
    reader !== undefined ? reader(parsed, context) : read(schema as Schema, parsed, 0, context);

  /**
   * A text too short to break a limit on size whatever it holds (the checks of decode/text-checks.ts,
   * inline: per call, on `messages`, the checks objects and budget it made cost more than the
   * reader). It is parsed at once; the walk after the parse checks nesting and keys, and a schema's
   * reader meeting fewer keys than the text holds (`keys`, from `keyCount`) sends it to the full
   * scan, which refuses the repeated key (first, whatever else the reader found wrong).
   */
  const fromShortText = (text: string, keys: number): T => {
    const parsed = parseJson(text);
    if (schema === undefined) {
      checkParsed(parsed, limits, text);
      return parsed as T;
    }
    const context = contextOf(text, false, undefined);
    let value: unknown;
    try {
      value = readParsed(parsed, context);
    } catch (error) {
      fullScan(text, checksOf(budgetOf(limits)));
      throw error;
    }
    if (context.tally.keys !== keys) fullScan(text, checksOf(budgetOf(limits)));
    return value as T;
  };

  /** A text that gets the full scan before the parse, which checks it and charges `budget`. */
  const fromScannedText = (text: string, budget: AllocationBudget): T => {
    const longString = fullScan(text, checksOf(budget));
    const parsed = parseJson(text);
    if (schema === undefined) {
      // The scan checked nesting and keys already.
      checkFinite(parsed, text);
      return parsed as T;
    }
    // What the reader builds beyond the parsed tree is charged where the scan charged the tree.
    return readParsed(parsed, contextOf(text, longString, allocationOf(budget))) as T;
  };

  /** One text to a value; `shared` is a budget the text shares with others (a sequence held whole). */
  const fromText = (text: string, shared?: AllocationBudget): T => {
    if (shared === undefined && fitsLimits(text.length, limits, unspent, heapPerChar)) {
      // Schemaless, repeated keys are JSON.parse's to keep: no count is needed.
      const keys = schemaless ? 0 : keyCount(text);
      if (keys >= 0) return fromShortText(text, keys);
    }
    return fromScannedText(text, shared ?? budgetOf(limits));
  };

  return {
    format: 'json',
    mediaType: jsonMediaTypes[0],
    streamMediaType: ndjsonMediaTypes[0],
    schema,
    compiled: writer !== undefined && reader !== undefined,
    encode: (value) => encoder.encode(toText(value)),
    decode(bytes) {
      checkInputSize(bytes, limits);
      return fromText(jsonText(bytes));
    },
    encodeStream: (values) => encodeValues(values, (value) => encoder.encode(`${toText(value)}\n`)),
    decodeStream: (chunks) => decodeLines(chunks, (line) => fromText(jsonText(line)), limits),
    encodeSequence: (values) => encodeSequenceOf(values, (value) => encoder.encode(`${toText(value)}\n`)),
    decodeSequence(bytes) {
      // A framing that hands a budget shared by the whole sequence has each line charged to it.
      const decodeLine = (line: Uint8Array, budget?: AllocationBudget) => fromText(jsonText(line), budget);
      return decodeFramesOf(bytes, lineFrame, decodeLine, limits, {
        decodeTail: decodeLine,
        isEmpty: isBlank,
      });
    },
  };
}

/** The budget as the schema's reader charges it, for the Dates, byte arrays, bigints and maps it makes. */
function allocationOf(budget: AllocationBudget): ReadAllocation {
  return {
    charge: (bytes) => budget.charge(bytes, 0),
    bytes: cost.bytes,
    date: cost.date,
    bigint: cost.bigint,
    object: cost.object,
    slot: cost.slot,
    map: cost.map,
    mapEntry: cost.mapEntry,
  };
}

/**
 * The most a schema's reader builds beyond the parsed tree, per string and per object: a byte array
 * for base64 (200 bytes for an empty string), a new object for a string-keyed map, a `Map` for one
 * of integer keys. Dates, bigints and decimals come from text long enough (a timestamp takes 22
 * characters at least) or cost little enough that a container's bound per character covers them.
 */
function readerExtras(root: Schema): ReaderExtras {
  let base64 = false;
  let perContainer = 0;
  const seen = new Set<Schema>();
  const pending: Schema[] = [root];
  while (pending.length > 0) {
    const node = pending.pop() as Schema;
    if (seen.has(node)) continue;
    seen.add(node);
    if (node.kind === 'bytes') base64 = true;
    else if (node.kind === 'map')
      perContainer = Math.max(perContainer, node.keys.kind === 'string' ? cost.object : cost.map);
    pending.push(...childrenOf(node));
  }
  return { perString: base64 ? cost.bytes : 0, perContainer };
}

/** Whether JSON text escapes a surrogate (`\\uD800`-`\\uDFFF`), the only way a parsed string gets a lone one. */
function mayHoldSurrogates(text: string): boolean {
  return text.includes('\\u') && /\\u[dD][89a-fA-F]/.test(text);
}

/** One NDJSON line, newline included; blank lines are frames that decode to nothing. */
const lineFrame: FrameMeasure = (buffer) => {
  const end = buffer.indexOf(0x0a);
  return end === -1 ? undefined : end + 1;
};

async function* decodeLines<T>(
  chunks: Parameters<Codec<T>['decodeStream']>[0],
  decodeLine: (line: Uint8Array) => T,
  limits: DecodeLimits,
): AsyncGenerator<T> {
  const skip = Symbol('blank line');
  const frames = decodeFrames<T | typeof skip>(
    chunks,
    lineFrame,
    (frame) => (isBlank(frame) ? skip : decodeLine(frame)),
    limits,
    { decodeTail: (tail) => (isBlank(tail) ? skip : decodeLine(tail)) },
  );
  for await (const value of frames) if (value !== skip) yield value;
}

function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes)
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  return true;
}

/** JSON as a value, for what is handed its formats (the HTTP client, the registry). */
export const jsonFormat: FormatEntry<'json'> = { name: 'json', create: createJsonCodec };
