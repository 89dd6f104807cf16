/**
 * Debian's Python on bytes, for the interop checks of the self-describing formats (MessagePack and
 * CBOR) and of the CLI. Callers ask `has('python:MODULE')` first (tools.ts).
 */
import { spawnSync } from 'node:child_process';
import { python } from './tools.js';

/** Runs `code` in Debian's Python with `input` on stdin; returns stdout, throwing with stderr on failure. */
export function runPython(code: string, input: Uint8Array = new Uint8Array(0)): Buffer {
  const result = spawnSync(python, ['-c', code], { input, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`python failed: ${result.stderr.toString()}`);
  return result.stdout;
}

/** `runPython` on text: `input` as UTF-8 on stdin, stdout as text. */
export function runPythonText(code: string, input: string): string {
  return runPython(code, new TextEncoder().encode(input)).toString();
}
