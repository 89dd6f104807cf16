/**
 * What the bench lab needs to know about a built-in dataset. Every generator is a pure function of
 * (count, seed), so that each run, on every machine, measures the same bytes.
 */
import type { ObjectSchema } from '../../schema/index.js';

export interface Dataset<T = unknown> {
  readonly name: string;
  /** One line, for the report. */
  readonly description: string;
  /** The schema of one item. */
  readonly schema: ObjectSchema<T>;
  readonly defaultCount: number;
  /**
   * 'batch': measured as one array of items (records, users, timeseries); 'item': per item, as a
   * cache sees them (products, orders).
   */
  readonly unit: 'batch' | 'item';
  generate(count?: number, seed?: number): T[];
}
