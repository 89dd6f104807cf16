/**
 * The consumer's per-event work in bench:events: what a small billing projection does with an order
 * event — sum the line items, check them against the event's subtotal and total, count events by
 * status. Small next to a real handler, so the decode cost shows; but it reads the nested items and
 * the decimal amounts, so a decoder that left them undecoded would gain nothing here.
 *
 * It takes the event's shape loosely (amounts are decimal strings in every format, and the handler
 * reads no timestamps): the plain-JSON baseline hands it the same shape as wirekit's codecs.
 */

/** The fields the handler reads, as every format gives them. */
export interface HandledEvent {
  readonly status: string;
  readonly items: readonly { readonly quantity: number; readonly total: string }[];
  readonly subtotal: string;
  readonly shipping: string;
  readonly total: string;
}

export interface Tally {
  events: number;
  items: number;
  units: number;
  /** Sum of the events' totals in cents. */
  totalCents: number;
  /** Events whose items do not add up to their subtotal, or subtotal + shipping to their total: 0 unless a codec altered a value. */
  mismatches: number;
  readonly byStatus: Record<string, number>;
}

export function newTally(): Tally {
  return { events: 0, items: 0, units: 0, totalCents: 0, mismatches: 0, byStatus: {} };
}

const cents = (amount: string): number => Math.round(Number(amount) * 100);

export function handleEvent(tally: Tally, event: HandledEvent): void {
  let itemCents = 0;
  for (const item of event.items) {
    itemCents += cents(item.total);
    tally.units += item.quantity;
  }
  tally.items += event.items.length;
  const subtotal = cents(event.subtotal);
  const total = cents(event.total);
  if (itemCents !== subtotal || subtotal + cents(event.shipping) !== total) tally.mismatches++;
  tally.totalCents += total;
  tally.byStatus[event.status] = (tally.byStatus[event.status] ?? 0) + 1;
  tally.events++;
}
