/**
 * The second event shape of bench:events's lag mode: a ~10 KB document, as a content or catalogue
 * service publishes one whole on every change — a few sections, each with paragraphs, a table of
 * integer readings and a list of tagged links: arrays nested in arrays, strings dominating the bytes.
 * Seeded, so every format, run and machine decodes the same documents. Beside the ~1 KB order
 * (order-event.ts) it shows how the gap between formats moves with an event's size and shape.
 *
 * `readingsSum` is the sum of every reading in the document: the handler (handler.ts) adds them up
 * again, so a decoder that altered or skipped a nested array is caught, not rewarded.
 */
import { loremWords, seededRandom, words } from 'wirekit-ts/lab';
import { type Infer, t } from 'wirekit-ts/schema';

export const DocumentEvent = t.object('DocumentEvent', {
  documentId: t.string(),
  revision: t.uint32(),
  updatedAt: t.timestamp(),
  title: t.string(),
  authors: t.array(t.string()),
  sections: t.array(
    t.object('DocumentSection', {
      heading: t.string(),
      paragraphs: t.array(t.string()),
      readings: t.array(
        t.object('ReadingRow', {
          label: t.string(),
          values: t.array(t.int32()),
        }),
      ),
      links: t.array(t.object('DocumentLink', { href: t.string(), tags: t.array(t.string()) })),
    }),
  ),
  readingsSum: t.int64({ as: 'number' }),
});

export type DocumentEvent = Infer<typeof DocumentEvent>;

/** `count` documents from `seed`, ~7-13 KB of JSON each (10 KB on average). */
export function documentEvents(count: number, seed = 1): DocumentEvent[] {
  const random = seededRandom(seed);
  const out: DocumentEvent[] = [];
  for (let i = 0; i < count; i++) {
    let readingsSum = 0;
    const sections = Array.from({ length: random.int(5, 7) }, (_, s) => ({
      heading: `${s + 1}. ${words(random, loremWords, random.int(2, 5))}`,
      paragraphs: Array.from({ length: random.int(2, 4) }, () =>
        words(random, loremWords, random.int(35, 55)),
      ),
      readings: Array.from({ length: random.int(3, 6) }, (_, r) => {
        const values = Array.from({ length: random.int(6, 12) }, () => random.int(-50_000, 50_000));
        for (const value of values) readingsSum += value;
        return { label: `row-${r + 1}`, values };
      }),
      links: Array.from({ length: random.int(1, 4) }, () => ({
        href: `https://docs.example.com/${words(random, loremWords, 3, '/')}`,
        tags: Array.from({ length: random.int(0, 3) }, () => random.pick(loremWords)),
      })),
    }));
    out.push({
      documentId: `doc-${(100_000 + i).toString(36)}-${random.int(1_000, 9_999)}`,
      revision: random.int(1, 500),
      updatedAt: new Date(Date.UTC(2026, 0, 1) + random.int(0, 365 * 86_400) * 1000),
      title: words(random, loremWords, random.int(4, 9)),
      authors: Array.from({ length: random.int(1, 3) }, () => words(random, loremWords, 2)),
      sections,
      readingsSum,
    });
  }
  return out;
}
