/**
 * The event bench:events sends: one order event as an order service publishes it on its bus, of 15
 * fields (ids, a customer, a nested address, 1-8 line items, decimal amounts, timestamps, an enum
 * status, tags), ~600-1,100 bytes of JSON. Fixed and seeded, so every format, run and machine
 * decodes the same events; the consumer's handler (handler.ts) touches the amounts and items, so a
 * decoder that skipped them would gain nothing.
 *
 * Strings are built flat (see ../datasets/text.ts): a generated rope would time the generator.
 */

import {
  Country,
  centsText,
  cities,
  countries,
  dateInAYear,
  firstNames,
  lastNames,
  loremWords,
  seededRandom,
  streets,
  words,
} from 'wirekit-ts/lab';
import { type Infer, t } from 'wirekit-ts/schema';

const Amount = t.decimal({ precision: 12, scale: 2 });

const OrderEventStatus = t.enum('OrderEventStatus', [
  'created',
  'paid',
  'packed',
  'shipped',
  'delivered',
  'cancelled',
  'refunded',
]);

const Currency = t.enum('Currency', ['EUR', 'USD', 'GBP', 'JPY']);

export const OrderEvent = t.object('OrderEvent', {
  eventId: t.string(),
  // Within 2^53 (as: 'number'): a 64-bit id every format carries, and plain JSON too.
  orderId: t.int64({ as: 'number' }),
  status: OrderEventStatus,
  occurredAt: t.timestamp(),
  customer: t.object('EventCustomer', {
    id: t.uint32(),
    name: t.string(),
    email: t.string(),
    loyaltyTier: t.uint8(),
  }),
  shippingAddress: t.object('EventAddress', {
    street: t.string(),
    city: t.string(),
    postalCode: t.string(),
    country: Country,
  }),
  items: t.array(
    t.object('LineItem', {
      sku: t.string(),
      name: t.string(),
      quantity: t.uint16(),
      unitPrice: Amount,
      total: Amount,
    }),
  ),
  currency: Currency,
  subtotal: Amount,
  shipping: Amount,
  total: Amount,
  paidAt: t.nullable(t.timestamp()),
  channel: t.string(),
  tags: t.array(t.string()),
  traceId: t.string(),
});

export type OrderEvent = Infer<typeof OrderEvent>;

const channels = ['web', 'ios', 'android', 'store', 'partner'];
const tagWords = ['gift', 'express', 'first-order', 'b2b', 'promo', 'fragile', 'backorder', 'vip'];
const hex = '0123456789abcdef';

function hexId(random: ReturnType<typeof seededRandom>, length: number): string {
  const chars: string[] = [];
  for (let i = 0; i < length; i++) chars.push(hex[random.int(0, 15)] as string);
  return chars.join('');
}

/** `count` order events from `seed`: the same events on every run. */
export function orderEvents(count: number, seed = 1): OrderEvent[] {
  const random = seededRandom(seed);
  const out: OrderEvent[] = [];
  for (let i = 0; i < count; i++) {
    const items = Array.from({ length: random.int(1, 8) }, () => {
      const quantity = random.int(1, 5);
      const unitCents = random.int(199, 25_000);
      return {
        sku: ['SKU', String(random.int(10_000, 99_999))].join('-'),
        name: words(random, loremWords, random.int(2, 4)),
        quantity,
        unitPrice: centsText(unitCents),
        total: centsText(unitCents * quantity),
      };
    });
    const subtotalCents = items.reduce((sum, item) => sum + Math.round(Number(item.total) * 100), 0);
    const shippingCents = random.pick([0, 0, 499, 999]);
    const status = random.pick(OrderEventStatus.members);
    const occurredAt = dateInAYear(random);
    const first = random.pick(firstNames);
    const customerId = random.int(100_000, 999_999);
    out.push({
      eventId: [
        hexId(random, 8),
        hexId(random, 4),
        hexId(random, 4),
        hexId(random, 4),
        hexId(random, 12),
      ].join('-'),
      orderId: 4_000_000_000_000 + i * 7 + random.int(0, 6),
      status,
      occurredAt,
      customer: {
        id: customerId,
        name: [first, random.pick(lastNames)].join(' '),
        email: [first.toLowerCase(), String(customerId), '@example.com'].join(''),
        loyaltyTier: random.int(0, 4),
      },
      shippingAddress: {
        street: [String(random.int(1, 400)), random.pick(streets), 'Street'].join(' '),
        city: random.pick(cities),
        postalCode: String(random.int(10_000, 99_999)),
        country: random.pick(countries),
      },
      items,
      currency: random.pick(['EUR', 'USD', 'GBP', 'JPY'] as const),
      subtotal: centsText(subtotalCents),
      shipping: centsText(shippingCents),
      total: centsText(subtotalCents + shippingCents),
      paidAt: status === 'created' ? null : new Date(occurredAt.getTime() - random.int(1_000, 3_600_000)),
      channel: random.pick(channels),
      tags: Array.from({ length: random.int(0, 3) }, () => random.pick(tagWords)),
      traceId: hexId(random, 32),
    });
  }
  return out;
}
