/**
 * Helpers for the compatibility tables: a row names a writer and a reader schema, and the table
 * asserts the reader's verdict on the writer's data (BACKWARD with the reader as the candidate)
 * and the error types found.
 */
import {
  type CompatibilityIssue,
  compatibilityReport,
  parseRegisteredSchema,
} from '../../../../src/boundaries/events/compatibility/index.js';
import type { SchemaType } from '../../../../src/boundaries/events/registry/api.js';

export interface Verdict {
  readonly compatible: boolean;
  readonly errorTypes: readonly string[];
  readonly issues: readonly CompatibilityIssue[];
}

/** A row a table asked about, and the registry's verdict on it. */
export interface AskedRow {
  readonly schemaType: SchemaType;
  readonly writer: string;
  readonly reader: string;
  readonly verdict: Verdict;
}

/**
 * Every row `verdict` was asked about in this test file, so that a file that imports the tables
 * (test/cli/schema-check-tables.test.ts) can run the same rows through `wirekit schema check`.
 */
export const askedRows: AskedRow[] = [];

/** The issues of `reader` reading data written with `writer`, both texts of `schemaType`. */
export function verdict(schemaType: SchemaType, writer: string, reader: string): Verdict {
  const parsedWriter = parseRegisteredSchema({ schemaType, schema: writer });
  const parsedReader = parseRegisteredSchema({ schemaType, schema: reader });
  const issues = compatibilityReport(parsedReader, [parsedWriter], 'BACKWARD').flatMap((v) => v.issues);
  const result = {
    compatible: issues.length === 0,
    errorTypes: [...new Set(issues.map((i) => i.errorType))].sort(),
    issues,
  };
  askedRows.push({ schemaType, writer, reader, verdict: result });
  return result;
}

/** JSON text of an Avro schema written as a JS value. */
export const avro = (schema: unknown): string => JSON.stringify(schema);

/** A record with these fields (Avro). */
export const record = (
  name: string,
  fields: unknown[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> => ({
  type: 'record',
  name,
  fields,
  ...extra,
});
