/**
 * What Arrow IPC says of itself without a wirekit schema: the schema it declares (in the shape of
 * Arrow's integration JSON) and how many rows and record batches it holds, for `wirekit inspect`.
 * The messages are walked with the codec's own checked parsers (messages.ts, ipc-read.ts) rather
 * than apache-arrow's reader, which trusts its input; batches are measured, not decoded.
 */
import { Schema as ArrowSchema } from 'apache-arrow';
import { arrowSchemaToJson } from '../../../schema/export/index.js';
import type { JsonValue } from '../../../schema/index.js';
import { plainBytes } from '../../../util/plain-bytes.js';
import { malformed, truncated } from '../../core/errors.js';
import { defaultDecodeLimits } from '../../core/limits.js';
import { isFile } from './ipc-bytes.js';
import { measureMessage } from './ipc-reader.js';
import { parseFooter, parseMessage } from './messages.js';

export interface ArrowInfo {
  readonly ipc: 'file' | 'stream';
  /** The schema the input declares, in the shape of Arrow's integration JSON. */
  readonly schema: JsonValue;
  readonly rows: number;
  readonly batches: number;
}

export function describeArrow(input: Uint8Array): ArrowInfo {
  const bytes = plainBytes(input);
  const file = isFile(bytes);
  // A file is "ARROW1" and 2 bytes of padding, the stream format, a footer, its length, "ARROW1".
  const start = file ? 8 : 0;
  const stop = file ? footerStart(bytes) : bytes.length;
  let schema: ArrowSchema | undefined;
  if (stop < bytes.length) {
    // A file's schema is in its footer; writers may leave the schema message out of the body.
    const footer = parseFooter(bytes.subarray(stop, bytes.length - 10), stop, defaultDecodeLimits);
    schema = new ArrowSchema([...footer.fields], footer.metadata);
  }
  let rows = 0;
  let batches = 0;
  for (let at = start; at < stop; ) {
    const size = measureMessage(bytes, at, stop, 0);
    if (size === undefined || at + size.total > stop) throw truncated(stop, 'an Arrow message');
    if (size.metadataLength === 0) break; // the end-of-stream marker
    const metadata = bytes.subarray(at + size.prefix, at + size.prefix + size.metadataLength);
    const { body } = parseMessage(metadata, at + size.prefix, defaultDecodeLimits);
    if (body.kind === 'schema') schema ??= new ArrowSchema([...body.fields], body.metadata);
    else if (body.kind === 'batch') {
      rows += body.batch.length;
      batches++;
    }
    at += size.total;
  }
  if (schema === undefined) throw malformed(start, 'the input declares no schema', 'arrow');
  return { ipc: file ? 'file' : 'stream', schema: arrowSchemaToJson(schema), rows, batches };
}

/** Where a file's footer starts, from the trailer (footer length, "ARROW1"); the end if it has none. */
function footerStart(bytes: Uint8Array): number {
  const length = bytes.length;
  if (length < 18 || !isFile(bytes.subarray(length - 6))) return length;
  const footerLength = new DataView(bytes.buffer, bytes.byteOffset, length).getInt32(length - 10, true);
  const start = length - 10 - footerLength;
  return footerLength >= 0 && start >= 8 ? start : length;
}
