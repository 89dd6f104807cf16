/**
 * A record batch from full column builders. The schema is made on the first batch (a string
 * column decides there whether it is dictionary-encoded) and kept for the rest, so that every
 * batch of a stream carries the same Schema object, as apache-arrow's stream writer expects.
 */
import { RecordBatch, Schema, Struct } from 'apache-arrow';
import { newData } from '../../codecs/arrow/data.js';
import type { AnyColumn } from './columns.js';

export class BatchAssembler {
  private schema: Schema | undefined;

  constructor(private readonly columns: readonly AnyColumn[]) {}

  /** The batch of the `rows` rows the builders hold; the builders start over empty. */
  take(rows: number): RecordBatch {
    const children = this.columns.map((column) => column.finish());
    this.schema ??= new Schema(this.columns.map((column) => column.field()));
    const struct = newData(new Struct(this.schema.fields), rows, { nullCount: 0 }, {}, children);
    return new RecordBatch(this.schema, struct as never);
  }
}
