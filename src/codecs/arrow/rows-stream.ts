/**
 * Rows in and out of streams: grouped into record batches on the way in, handed out one at a time
 * on the way out, without a microtask turn per row where none is needed.
 */

/**
 * Groups rows into arrays of `size`, for one record batch each. A synchronous source is grouped
 * synchronously: awaiting each row of an array would cost a microtask turn per row.
 */
export function batchesOf<Row>(
  rows: Iterable<Row> | AsyncIterable<Row>,
  size: number,
): Iterable<Row[]> | AsyncIterable<Row[]> {
  if (Symbol.asyncIterator in rows) return asyncBatchesOf(rows, size);
  return (function* () {
    let batch: Row[] = [];
    for (const row of rows) {
      batch.push(row);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  })();
}

async function* asyncBatchesOf<Row>(rows: AsyncIterable<Row>, size: number): AsyncGenerator<Row[]> {
  let batch: Row[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * The rows of each batch, one at a time. Rows already decoded are handed out as resolved promises
 * rather than through an async generator's `yield`, which costs several microtask turns per row.
 */
export function eachRow<Row>(batches: AsyncGenerator<Row[]>): AsyncIterable<Row> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<Row> {
      let rows: Row[] = [];
      let next = 0;
      const refill = async (): Promise<IteratorResult<Row>> => {
        while (next >= rows.length) {
          const batch = await batches.next();
          if (batch.done) return { done: true, value: undefined };
          rows = batch.value;
          next = 0;
        }
        return { done: false, value: rows[next++] as Row };
      };
      return {
        next: () =>
          next < rows.length ? Promise.resolve({ done: false, value: rows[next++] as Row }) : refill(),
        return: async () => {
          rows = [];
          await batches.return(undefined);
          return { done: true, value: undefined };
        },
      };
    },
  };
}
