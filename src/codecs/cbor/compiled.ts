/**
 * CBOR, compiled: the keyed-format generator (src/codecs/keyed/compiled.ts) with CBOR's writer, which pre-encodes the keys,
 * map headers and constants. Short ASCII strings in the two short heads are read here; all others
 * (a self-describe tag in front, chunked strings, longer forms) by the source itself.
 */

import { CompiledCache } from '../core/codegen.js';
import {
  type CompiledFormat,
  type CompiledPlan,
  compilePlan,
  type InputSource,
  readShortAscii,
} from '../keyed/compiled.js';
import type { Plan } from '../keyed/plan.js';
import { CborEmitter } from './writer.js';

/** A CBOR text string as `CborSource.string` reads it (see readShortAscii). */
function readCborString(src: InputSource): string {
  const bytes = src.input;
  const pos = src.pos;
  const head = bytes[pos] as number;
  // Major type 3 with the length in the head (0x60–0x77) or in one byte after it (0x78).
  if (head >= 0x60 && head < 0x78) return readShortAscii(src, pos + 1, head & 0x1f);
  if (head === 0x78 && pos + 1 < src.end) return readShortAscii(src, pos + 2, bytes[pos + 1] as number);
  return src.string();
}

/** The CBOR format as the generator takes it. */
export const cborFormat: CompiledFormat = {
  emitter: () => new CborEmitter(),
  cache: new CompiledCache<Plan, CompiledPlan>(256),
  readString: readCborString,
};

/** The compiled CBOR encoder and decoder of `plan`, or undefined (see `compilePlan`). */
export function compileCbor(plan: Plan): CompiledPlan | undefined {
  return compilePlan(plan, cborFormat);
}
