/**
 * The large Avro schema texts the registry's bound, cost and responsiveness tests send, as JSON
 * text the way a client registers them: their size is what those tests turn.
 */

/** A record `name` of `fields` int fields f0, f1, ..., then `extra` fields as given. */
export function avroIntRecord(name: string, fields: number, extra: readonly object[] = []): string {
  return JSON.stringify({
    type: 'record',
    name,
    fields: [...Array.from({ length: fields }, (_, i) => ({ name: `f${i}`, type: 'int' })), ...extra],
  });
}

/** A union of `records` records R0, R1, ..., each of one int field `a`. */
export function avroRecordUnion(records: number): string {
  return JSON.stringify(
    Array.from({ length: records }, (_, i) => ({
      type: 'record',
      name: `R${i}`,
      fields: [{ name: 'a', type: 'int' }],
    })),
  );
}
