/**
 * One amplification case in a process of its own, started by main.ts under a small heap
 * (`--max-old-space-size`): reads the case's input file, decodes it, and prints one JSON line
 * saying how it ended (`decoded`, or the WK_ code it was refused with) and how long it took.
 */
import { readFileSync } from 'node:fs';
import { isWirekitError } from 'wirekit-ts/errors';
import { amplificationCase } from './cases.js';

export interface WorkerOutcome {
  readonly outcome: string;
  readonly message: string;
  readonly ms: number;
  /** Resident memory once the input is read, before the decode: what the decode's peak is above. */
  readonly rssBeforeMiB: number;
}

const [name, file] = process.argv.slice(2);
const found = amplificationCase(name ?? '');
if (!('library' in found.decode) || file === undefined)
  throw new Error('worker.js CASE INPUT-FILE (a library case)');
const bytes = new Uint8Array(readFileSync(file));
const rssBeforeMiB = Math.round(process.resourceUsage().maxRSS / 1024);
const started = process.hrtime.bigint();
let outcome = 'decoded';
let message = '';
try {
  found.decode.library(bytes);
} catch (error) {
  if (!isWirekitError(error)) throw error;
  outcome = error.code;
  message = error.message;
}
const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
const result: WorkerOutcome = { outcome, message, ms, rssBeforeMiB };
process.stdout.write(`${JSON.stringify(result)}\n`);
