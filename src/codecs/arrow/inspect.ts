/**
 * The declared inspection surface of Apache Arrow IPC: what `wirekit inspect` shows of a stream or
 * file it has no wirekit schema for. Tools outside the codecs import this entry (or index.ts),
 * never the format's other files.
 */
export { type ArrowInfo, describeArrow } from './decode/describe.js';
