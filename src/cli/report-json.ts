/**
 * What the two reports of `wirekit inspect` (an envelope's, inspect-report.ts, and a Confluent
 * frame's, registry-report.ts) say alike about reading the value, and how both print for scripts:
 * one JSON object, so that a script reads the outcome under the same names whichever frame it was.
 */
import type { JsonValue } from '../schema/index.js';

/** Whether the value was read, and what came of it. */
export interface ReadOutcome {
  decoded: boolean;
  value?: JsonValue;
  /** Why the value is missing, or what to try next. */
  note?: string;
  hex?: { readonly shown: number; readonly of: number; readonly lines: readonly string[] };
  error?: { readonly code: string; readonly message: string };
}

/** A report as one indented JSON object on its own line. */
export function renderReportJson(report: object): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
