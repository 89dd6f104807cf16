/**
 * `orders`: an object graph as an API returns it: a customer with addresses and a list of orders,
 * with string-keyed and integer-keyed maps, an enum, decimal money, byte arrays, timestamps, and
 * the same objects referenced many times (an order's addresses are the customer's own address
 * objects; order lines point into one shared product catalogue). In JavaScript these are the same
 * instances; formats without references write each occurrence in full, which is part of what this
 * dataset measures. Measured per item (one customer graph).
 */
import { type Infer, t } from '../../schema/index.js';
import { type Random, seededRandom } from '../random.js';
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

const Address = t.object('Address', {
  id: t.uint32(),
  street: t.string(),
  city: t.string(),
  postalCode: t.string(),
  country: Country,
});

const CatalogItem = t.object('CatalogItem', {
  id: t.uint32(),
  sku: t.string(),
  name: t.string(),
  price: Amount,
  category: t.string(),
});

const OrderStatus = t.enum('OrderStatus', ['pending', 'paid', 'shipped', 'delivered', 'cancelled']);

const Order = t.object('Order', {
  // int64 within 2^53 (as: 'number'): a 64-bit id on the wire that every format, Avro included,
  // carries exactly, and that native JSON can still write.
  id: t.int64({ as: 'number' }),
  status: OrderStatus,
  placedAt: t.timestamp(),
  shippedAt: t.nullable(t.timestamp()),
  shippingAddress: Address,
  billingAddress: Address,
  lines: t.array(
    t.object('OrderLine', { product: CatalogItem, quantity: t.uint16(), unitPrice: Amount, total: Amount }),
  ),
  // Product id -> quantity: an integer-keyed map, a JavaScript Map.
  quantities: t.map(t.uint32(), t.uint16()),
  total: Amount,
  // A SHA-256-sized signature of the order.
  signature: t.bytes(),
  attributes: t.map(t.string(), t.string()),
});

export const Customer = t.object('Customer', {
  id: t.uint32(),
  name: t.string(),
  email: t.string(),
  createdAt: t.timestamp(),
  addresses: t.array(Address),
  orders: t.array(Order),
  preferences: t.map(t.string(), t.string()),
});

export type Customer = Infer<typeof Customer>;
type Address = Infer<typeof Address>;
type CatalogItem = Infer<typeof CatalogItem>;
type Order = Infer<typeof Order>;

const categories = ['books', 'garden', 'kitchen', 'toys', 'tools', 'music', 'games'];
const channels = ['web', 'ios', 'android', 'store'];
const coupons = ['NONE', 'WELCOME10', 'SPRING', 'VIP5'];

function catalog(random: Random, size: number): CatalogItem[] {
  return Array.from({ length: size }, (_, i) => ({
    id: 5_000 + i,
    sku: ['SKU', String(5_000 + i)].join('-'),
    name: words(random, loremWords, random.int(2, 4)),
    price: money(random, 2, 250),
    category: random.pick(categories),
  }));
}

function address(random: Random, id: number): Address {
  return {
    id,
    street: [String(random.int(1, 400)), random.pick(streets), 'Street'].join(' '),
    city: random.pick(cities),
    postalCode: String(random.int(10_000, 99_999)),
    country: random.pick(countries),
  };
}

function order(
  random: Random,
  id: number,
  addresses: readonly Address[],
  products: readonly CatalogItem[],
): Order {
  const lines = Array.from({ length: random.int(1, 5) }, () => {
    const product = random.pick(products);
    const quantity = random.int(1, 4);
    return {
      product,
      quantity,
      unitPrice: product.price,
      total: centsText(centsOf(product.price) * quantity),
    };
  });
  const quantities = new Map<number, number>();
  for (const line of lines)
    quantities.set(line.product.id, (quantities.get(line.product.id) ?? 0) + line.quantity);
  const status = random.pick(OrderStatus.members);
  const placedAt = dateInAYear(random);
  const shipping = random.pick(addresses);
  return {
    id,
    status,
    placedAt,
    shippedAt:
      status === 'shipped' || status === 'delivered'
        ? new Date(placedAt.getTime() + random.int(3_600_000, 259_200_000))
        : null,
    // The very same address objects as the customer's `addresses`: repeated references.
    shippingAddress: shipping,
    billingAddress: random.next() < 0.7 ? shipping : random.pick(addresses),
    lines,
    quantities,
    total: centsText(lines.reduce((sum, line) => sum + centsOf(line.total), 0)),
    signature: randomBytes(random, 32),
    attributes: { channel: random.pick(channels), coupon: random.pick(coupons) },
  };
}

export function orders(count = 200, seed = 1): Customer[] {
  const random = seededRandom(seed);
  // One catalogue shared by every customer, so products repeat across orders and customers.
  const products = catalog(random, 60);
  let nextOrderId = 4_000_000_000_000;
  return Array.from({ length: count }, (_, i): Customer => {
    const id = 100_000 + i;
    const first = random.pick(firstNames);
    const last = random.pick(lastNames);
    const addresses = Array.from({ length: random.int(1, 3) }, (_, a) => address(random, id * 10 + a));
    return {
      id,
      name: [first, last].join(' '),
      email: [first.toLowerCase(), String(id), '@example.com'].join(''),
      createdAt: dateInAYear(random),
      addresses,
      orders: Array.from({ length: random.int(0, 8) }, () => {
        nextOrderId += random.int(1, 1_000);
        return order(random, nextOrderId, addresses, products);
      }),
      preferences: {
        language: random.pick(['en', 'de', 'fr', 'ja']),
        newsletter: random.pick(['weekly', 'never']),
      },
    };
  });
}

export const ordersDataset: Dataset<Customer> = {
  name: 'orders',
  description: 'customer object graphs: orders, maps, an enum, decimals, bytes, shared references',
  schema: Customer,
  defaultCount: 200,
  unit: 'item',
  generate: orders,
};
