/**
 * The one wording of "this input is past its limit", for every reader of user files (the CLI, and
 * `bench --data`): which input, the limit in bytes and as people say it, and the flag that raises it.
 */
import { WirekitError } from '../errors/index.js';

export function inputTooLarge(name: string, maxBytes: number): WirekitError {
  return new WirekitError(
    'WK_LIMIT_INPUT',
    `${name} is larger than the input limit of ${maxBytes} bytes (${sizeText(maxBytes)}); pass --max-input-bytes N to read more.`,
  );
}

/** A byte count as people say it: 64 MiB, 1.5 GiB, 300 bytes. */
function sizeText(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}
