/**
 * How the load generator knows a reply is right without decoding every one of them (a 10,000-user
 * reply costs the client more to decode than the server to send): the first reply to each distinct
 * request, and each message of a stream by its position, is decoded and compared with the values
 * the client expects (the same dataset, made in this process); once one matches, its bytes are
 * kept, and a later reply with the same bytes is the same values. A reply with other bytes is
 * decoded and compared again, so a server that encodes differently each time is checked, not failed.
 */

/** The value as JSON with every object's keys sorted: Dates as ISO strings, numbers as JSON writes them. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(JSON.parse(JSON.stringify(value)) as unknown));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortKeys(record[key])]),
  );
}

export class ReplyCheck {
  readonly #reference = new Map<string, Buffer>();
  readonly #expected = new Map<string, string>();

  constructor(
    private readonly decode: (bytes: Buffer) => unknown,
    private readonly expectedOf: (key: string) => unknown,
  ) {}

  /** Whether `bytes`, the reply known by `key`, holds the values expected for that key. */
  matches(key: string, bytes: Buffer): boolean {
    const reference = this.#reference.get(key);
    if (reference?.equals(bytes)) return true;
    let expected = this.#expected.get(key);
    if (expected === undefined) {
      expected = canonicalJson(this.expectedOf(key));
      this.#expected.set(key, expected);
    }
    let decoded: string;
    try {
      decoded = canonicalJson(this.decode(bytes));
    } catch {
      return false;
    }
    if (decoded !== expected) return false;
    if (reference === undefined) this.#reference.set(key, Buffer.from(bytes));
    return true;
  }
}
