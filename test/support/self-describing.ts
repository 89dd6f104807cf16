/**
 * Helpers shared by the MessagePack and CBOR tests: cutting bytes at chosen offsets, reading a
 * codec's stream, and running Debian's Python on bytes for the interop checks. The general stream
 * helpers are in test/support/streams.ts.
 */
import { spawnSync } from 'node:child_process';
import type { Codec } from '../../src/codecs/core/codec.js';
import { collect } from './streams.js';
import { python } from './tools.js';

/**
 * `bytes` cut at `cuts`, offsets in ascending order, as an async source of chunks. Unlike
 * `chunked` of test/support/streams.ts (chunk sizes, cycled), this puts the cuts exactly where the
 * test chose them. Empty pieces (a repeated cut, one at 0 or at the end) are skipped, and
 * each piece is a copy.
 */
export async function* cutAt(bytes: Uint8Array, cuts: readonly number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut > from) yield bytes.slice(from, cut);
    from = Math.max(from, cut);
  }
}

/** Every value `codec` reads from `source`. */
export function decodeAll<T>(codec: Codec<T>, source: AsyncIterable<Uint8Array>): Promise<T[]> {
  return collect(codec.decodeStream(source));
}

/** Runs `code` in Debian's Python with `input` on stdin; returns stdout, throwing with stderr on failure. */
export function runPython(code: string, input: Uint8Array = new Uint8Array(0)): Buffer {
  const result = spawnSync(python, ['-c', code], { input, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`python failed: ${result.stderr.toString()}`);
  return result.stdout;
}

export function hex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text.replaceAll(' ', ''), 'hex'));
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** The every-kind fixture's value in Python (shared by both formats; decimals differ and are patched). */
export const pythonEveryKind = `
import datetime
utc = datetime.timezone.utc
expected = {
  'flag': True, 'i8': -128, 'i16': 32767, 'i32': -2147483648, 'u8': 255, 'u16': 65535, 'u32': 4294967295,
  'i64': -9223372036854775808, 'u64': 18446744073709551615, 'i64n': 9007199254740991,
  'f32': 1.5, 'f64': -0.1, 'price': PRICE, 'name': 'Zo\\u00eb \\U0001F680', 'blob': b'\\x00\\x01\\x02\\xfe\\xff',
  'createdAt': datetime.datetime(2024, 2, 29, 12, 34, 56, 789000, tzinfo=utc),
  'updatedAt': datetime.datetime(1969, 12, 31, 23, 59, 59, 999000, tzinfo=utc),
  'color': 'green', 'version': 'v1', 'home': {'street': '1 Main St', 'zip': '12345'},
  'tags': ['a', '', '\\u00fcn\\u00efc\\u00f6d\\u00e9'], 'matrix': [[1, 2], [], [3]],
  'scores': {'math': 9.5, 'art': -1.0},
  'byId': {7: {'street': 'Elm', 'zip': '9'}, -1: {'street': '', 'zip': ''}},
  'manager': None, 'shape': {'kind': 'circle', 'radius': 2.0},
  'shapes': [{'kind': 'rect', 'width': 1.0, 'height': 2.5}, {'kind': 'circle', 'radius': 0.0}],
  'extra': {'any': ['json', 1, None, True, {'nested': 'yes'}]}, 'legacy': 'old',
  'category': {'name': 'root', 'children': [{'name': 'leaf', 'children': []}]},
}
# Floats must arrive as floats (a float64 field holding 2 is still 2.0), integers as integers.
def check_types(d):
  floats = [d['f32'], d['f64'], d['scores']['art'], d['shape']['radius'], d['shapes'][0]['width'], d['shapes'][1]['radius']]
  ints = [d['i8'], d['i64'], d['u64'], d['i64n'], d['u32']]
  assert all(type(x) is float for x in floats), [type(x) for x in floats]
  assert all(type(x) is int for x in ints), [type(x) for x in ints]
`;
