/**
 * `documents`: order documents as a shop's API or cache holds them, one self-contained document
 * each (~2 KB of JSON): a nested customer and address, 5-15 line items with string tags, a string
 * map of attributes, decimal money, 64-512 bytes of binary (a signature or thumbnail), Dates and an
 * enum. Unlike `orders` it has no shared references and no integer-keyed Map, so every peer,
 * Fury included, holds it as is. Measured both ways: one array of documents, and one per call (the
 * cache and RPC shape, where a codec's fixed cost per call shows).
 */
import { type Infer, t } from '../../schema/index.js';
import { seededRandom } from '../random.js';
import type { Dataset } from './dataset.js';
import {
  centsOf,
  centsText,
  cities,
  dateInAYear,
  firstNames,
  lastNames,
  loremWords,
  money,
  randomBytes,
  streets,
  words,
} from './text.js';
import { Country, countries } from './users.js';

const Amount = t.decimal({ precision: 12, scale: 2 });

const DocumentStatus = t.enum('DocumentStatus', ['draft', 'placed', 'paid', 'shipped', 'returned']);

const PostalAddress = t.object('PostalAddress', {
  street: t.string(),
  city: t.string(),
  postalCode: t.string(),
  country: Country,
});

const LineItem = t.object('LineItem', {
  sku: t.string(),
  name: t.string(),
  quantity: t.uint16(),
  unitPrice: Amount,
  tags: t.array(t.string()),
});

export const OrderDocument = t.object('OrderDocument', {
  id: t.uint32(),
  number: t.string(),
  status: DocumentStatus,
  createdAt: t.timestamp(),
  updatedAt: t.timestamp(),
  customer: t.object('DocumentCustomer', {
    id: t.uint32(),
    name: t.string(),
    email: t.string(),
    address: PostalAddress,
  }),
  items: t.array(LineItem),
  attributes: t.map(t.string(), t.string()),
  total: Amount,
  signature: t.bytes(),
  note: t.string(),
});

export type OrderDocument = Infer<typeof OrderDocument>;

const tagWords = ['new', 'sale', 'gift', 'eco', 'fragile', 'bulk', 'imported', 'limited', 'bundle'];
const attributeValues = {
  channel: ['web', 'ios', 'android', 'store', 'partner'],
  currency: ['USD', 'EUR', 'GBP', 'JPY'],
  warehouse: ['AMS-1', 'FRA-2', 'IAD-3', 'NRT-1'],
  coupon: ['NONE', 'WELCOME10', 'SPRING', 'VIP5'],
  carrier: ['dhl', 'ups', 'postnl', 'yamato'],
} as const;

export function documents(count = 2_000, seed = 1): OrderDocument[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i): OrderDocument => {
    const id = 7_000_000 + i * 13 + random.int(0, 12);
    const first = random.pick(firstNames);
    const last = random.pick(lastNames);
    const items = Array.from({ length: random.int(5, 15) }, () => {
      const sku = ['SKU', String(random.int(10_000, 99_999))].join('-');
      return {
        sku,
        name: words(random, loremWords, random.int(2, 5)),
        quantity: random.int(1, 12),
        unitPrice: money(random, 1, 400),
        tags: Array.from({ length: random.int(0, 4) }, () => random.pick(tagWords)),
      };
    });
    const total = items.reduce((sum, item) => sum + centsOf(item.unitPrice) * item.quantity, 0);
    const attributes: Record<string, string> = {};
    for (const [key, values] of Object.entries(attributeValues))
      if (random.next() < 0.8) attributes[key] = random.pick(values);
    const createdAt = dateInAYear(random);
    return {
      id,
      number: ['ORD', String(2024), String(id)].join('-'),
      status: random.pick(DocumentStatus.members),
      createdAt,
      updatedAt: new Date(createdAt.getTime() + random.int(0, 86_400_000)),
      customer: {
        id: 300_000 + random.int(0, 99_999),
        name: [first, last].join(' '),
        email: [first.toLowerCase(), '.', last.toLowerCase(), '@example.com'].join(''),
        address: {
          street: [String(random.int(1, 400)), random.pick(streets), 'Street'].join(' '),
          city: random.pick(cities),
          postalCode: String(random.int(10_000, 99_999)),
          country: random.pick(countries),
        },
      },
      items,
      attributes,
      total: centsText(total),
      signature: randomBytes(random, random.int(64, 512)),
      note: words(random, loremWords, random.int(0, 12)),
    };
  });
}

export const documentsDataset: Dataset<OrderDocument> = {
  name: 'documents',
  description:
    'order documents: nested customer, 5-15 tagged line items, a string map, decimals, bytes, Dates',
  schema: OrderDocument,
  defaultCount: 2_000,
  unit: 'item',
  generate: documents,
};
