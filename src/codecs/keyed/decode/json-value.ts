/**
 * The `json` kind read from MessagePack or CBOR: null, booleans, strings, finite numbers (integers
 * only while exact), arrays, and maps with string keys as plain objects (unsafe and repeated keys
 * refused). Anything else the formats can hold (bytes, timestamps, tags, other keys) is not JSON,
 * so it is a schema mismatch.
 */
import { describeValue } from '../../../errors/index.js';
import { isUnsafeKey, malformed, unsafeKey } from '../../core/errors.js';
import { schemaMismatch } from '../failures.js';
import { ItemKind, type WireSource } from '../wire.js';

/** Reads one JSON value that sits inside `depth` containers. */
export function readJson(src: WireSource, depth: number): unknown {
  const at = src.pos;
  switch (src.peek()) {
    case ItemKind.null:
      src.nullish();
      return null;
    case ItemKind.bool:
      return src.bool();
    case ItemKind.string:
      return src.string();
    case ItemKind.integer: {
      const value = src.integer();
      if (typeof value === 'bigint')
        throw schemaMismatch(at, `${value} is beyond a JSON number's exact range`);
      return value;
    }
    case ItemKind.float: {
      const value = src.float();
      if (!Number.isFinite(value)) throw schemaMismatch(at, `${value} is not a JSON number`);
      return value;
    }
    case ItemKind.array: {
      const count = src.arrayStart(depth + 1);
      const out: unknown[] = count >= 0 ? new Array(count) : [];
      for (let i = 0; count < 0 ? src.more() : i < count; i++) out[i] = readJson(src, depth + 1);
      return out;
    }
    case ItemKind.map: {
      // A record's keys are its definition's, checked there (distinct, none unsafe).
      const record = src.recordAhead(depth + 1, true);
      if (record !== undefined) {
        const out: Record<string, unknown> = {};
        for (const key of record.names) out[key] = readJson(src, depth + 1);
        return out;
      }
      const count = src.mapStart(depth + 1);
      const out: Record<string, unknown> = {};
      for (let i = 0; count < 0 ? src.more() : i < count; i++) {
        const keyAt = src.pos;
        const key = src.string();
        if (isUnsafeKey(key)) throw unsafeKey(keyAt, key);
        if (Object.hasOwn(out, key)) throw malformed(keyAt, `the key ${describeValue(key)} appears twice`);
        out[key] = readJson(src, depth + 1);
      }
      return out;
    }
    default:
      throw schemaMismatch(at, `expected a JSON value, got ${src.describeNext()}`);
  }
}
