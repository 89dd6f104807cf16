/**
 * The event shapes bench:events sends: the ~1 KB order (order-event.ts, every mode) and the ~10 KB
 * document with nested arrays (document-event.ts, the lag mode's second shape). Each brings its
 * schema, its seeded generator and the handler's check, so the producer, the consumer and the codecs
 * pick all three from one name.
 */
import { DocumentEvent, documentEvents } from './document-event.js';
import { type HandledEvent, handleEvent, type Tally } from './handler.js';
import { OrderEvent, orderEvents } from './order-event.js';

export const eventShapes = ['order', 'document'] as const;
export type EventShape = (typeof eventShapes)[number];

export const shapeSchema = (shape: EventShape) => (shape === 'document' ? DocumentEvent : OrderEvent);

export function shapeEvents(shape: EventShape, count: number, seed: number): unknown[] {
  return shape === 'document' ? documentEvents(count, seed) : orderEvents(count, seed);
}

/**
 * Events per producer send of the shape: Kafka refuses a record batch over 1 MB
 * (message.max.bytes), so ~10 KB documents go 50 a send, ~1 KB orders 1,000.
 */
export const eventsPerSend = (shape: EventShape): number => (shape === 'document' ? 50 : 1000);

/** The handler's work on one decoded event of the shape, counted in `tally`. */
export function handleShaped(shape: EventShape, tally: Tally, value: unknown): void {
  if (shape === 'order') {
    handleEvent(tally, value as HandledEvent);
    return;
  }
  // A document's readings summed again: a nested array altered or skipped shows as a mismatch.
  const document = value as DocumentEvent;
  let sum = 0;
  for (const section of document.sections) {
    for (const row of section.readings) for (const reading of row.values) sum += reading;
    tally.items += section.readings.length;
  }
  if (sum !== document.readingsSum) tally.mismatches++;
  tally.events++;
}
