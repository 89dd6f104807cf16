/**
 * A schemaless map as msgpackr and cbor-x return it, so that wirekit's own readers (used where the
 * libraries cannot map the input) give the same shape: a plain object while every key is a string,
 * and a Map, keeping the entries so far in order, from the first key that is not. Unsafe keys never
 * arrive here: the format's scanner has refused them.
 */
export class DecodedMap {
  private object: Record<string, unknown> | undefined = {};
  private map: Map<unknown, unknown> | undefined;

  set(key: unknown, value: unknown): void {
    if (this.object !== undefined && typeof key === 'string') {
      this.object[key] = value;
      return;
    }
    if (this.object !== undefined) {
      this.map = new Map(Object.entries(this.object));
      this.object = undefined;
    }
    (this.map as Map<unknown, unknown>).set(key, value);
  }

  get value(): Record<string, unknown> | Map<unknown, unknown> {
    return this.object ?? (this.map as Map<unknown, unknown>);
  }
}
