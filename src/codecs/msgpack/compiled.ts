/**
 * MessagePack, compiled: the keyed-format generator (src/codecs/keyed/compiled.ts) with
 * MessagePack's writer, which pre-encodes the keys, map headers and constants. Short ASCII strings
 * in the two short forms are read here; all others by the reader itself.
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
import { MsgpackEmitter } from './writer.js';

/**
 * A MessagePack string as `MsgpackSource.string` reads it. Short ASCII strings in the two short
 * forms (fixstr, str 8) are decoded here; anything else (other forms, a limit exceeded, the input
 * cut, a byte above 0x7f) is left to the source from the same position, so its checks and errors
 * are the interpreter's.
 */
function readMsgpackString(src: InputSource): string {
  const bytes = src.input;
  const pos = src.pos;
  const head = bytes[pos] as number;
  if (head >= 0xa0 && head < 0xc0) return readShortAscii(src, pos + 1, head & 0x1f);
  if (head === 0xd9 && pos + 1 < src.end) return readShortAscii(src, pos + 2, bytes[pos + 1] as number);
  return src.string();
}

/** The MessagePack format as the generator takes it. */
export const msgpackFormat: CompiledFormat = {
  emitter: () => new MsgpackEmitter(),
  cache: new CompiledCache<Plan, CompiledPlan>(256),
  readString: readMsgpackString,
};

/** The compiled MessagePack encoder and decoder of `plan`, or undefined (see `compilePlan`). */
export function compileMsgpack(plan: Plan): CompiledPlan | undefined {
  return compilePlan(plan, msgpackFormat);
}
