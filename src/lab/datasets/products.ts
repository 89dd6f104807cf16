/**
 * `products`: nested catalogue documents of ~6.3 KB of JSON each (options, tags, prices, image
 * URLs, dimensions, vendor, ratings, variants), the shape behind the published per-item cache
 * figures (MessagePack 41.8 µs vs JSON 16.6 µs to encode). Measured per item.
 */
import { type Infer, t } from '../../schema/index.js';
import { type Random, seededRandom } from '../random.js';
import type { Dataset } from './dataset.js';
import { centsOf, centsText, cities, dateInAYear, float, loremWords, money, words } from './text.js';
import { Country, countries } from './users.js';

// Scale 2 on every amount, and values always written with two fraction digits: Avro and Arrow
// store the unscaled integer, so "12.5" would come back as "12.50".
const Money = t.object('Money', {
  amount: t.decimal({ precision: 12, scale: 2 }),
  currency: t.enum('Currency', ['USD', 'EUR', 'GBP', 'JPY']),
});

const Image = t.object('Image', { url: t.string(), alt: t.string(), width: t.uint16(), height: t.uint16() });

const Variant = t.object('Variant', {
  id: t.uint32(),
  sku: t.string(),
  title: t.string(),
  price: Money,
  stock: t.uint32(),
  barcode: t.string(),
  weightGrams: t.uint32(),
  options: t.map(t.string(), t.string()),
  image: Image,
});

export const Product = t.object('Product', {
  id: t.uint32(),
  sku: t.string(),
  title: t.string(),
  slug: t.string(),
  description: t.string(),
  brand: t.string(),
  categories: t.array(t.string()),
  tags: t.array(t.string()),
  price: Money,
  compareAtPrice: t.optional(Money),
  options: t.array(t.object('ProductOption', { name: t.string(), values: t.array(t.string()) })),
  images: t.array(Image),
  dimensions: t.object('Dimensions', {
    length: t.float64(),
    width: t.float64(),
    height: t.float64(),
    weight: t.float64(),
    unit: t.enum('LengthUnit', ['cm', 'in']),
  }),
  vendor: t.object('Vendor', {
    id: t.uint32(),
    name: t.string(),
    country: Country,
    city: t.string(),
    website: t.string(),
    verified: t.bool(),
  }),
  ratings: t.object('Ratings', {
    average: t.float64(),
    count: t.uint32(),
    // Counts of 1 to 5 stars.
    histogram: t.array(t.uint32()),
  }),
  variants: t.array(Variant),
  attributes: t.map(t.string(), t.string()),
  active: t.bool(),
  createdAt: t.timestamp(),
  updatedAt: t.timestamp(),
});

export type Product = Infer<typeof Product>;
type Image = Infer<typeof Image>;

const brands = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Tyrell', 'Cyberdyne'];
const nouns = ['Jacket', 'Backpack', 'Sneaker', 'Lamp', 'Kettle', 'Headphones', 'Desk', 'Chair', 'Watch'];
const categoryTree = ['Home', 'Outdoor', 'Apparel', 'Electronics', 'Kitchen', 'Office', 'Sports', 'Travel'];
const tagWords = ['new', 'sale', 'eco', 'bestseller', 'limited', 'gift', 'premium', 'vegan', 'handmade'];
const optionValues: Readonly<Record<string, readonly string[]>> = {
  Color: ['Black', 'White', 'Navy', 'Olive', 'Crimson', 'Sand', 'Slate'],
  Size: ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
  Material: ['Cotton', 'Wool', 'Leather', 'Canvas', 'Recycled polyester'],
};
const attributeKeys = ['origin', 'care', 'warranty', 'season', 'fit', 'collection', 'pattern'];

function image(random: Random, productId: number, index: number): Image {
  const width = random.pick([640, 800, 1024, 1200, 1600]);
  return {
    url: [
      'https://cdn.example.com/products/',
      String(productId),
      '/',
      String(index),
      '-',
      String(width),
      '.jpg',
    ].join(''),
    alt: words(random, loremWords, random.int(4, 8)),
    width,
    height: Math.round((width * 3) / 4),
  };
}

type Option = Product['options'][number];

function variant(random: Random, id: number, index: number, price: string, options: readonly Option[]) {
  const choices = options.map((option) => random.pick(option.values));
  return {
    id: id * 100 + index,
    sku: ['P', String(id).padStart(6, '0'), String(index)].join('-'),
    title: choices.join(' / '),
    price: { amount: centsText(centsOf(price) + random.int(0, 2_000)), currency: 'USD' as const },
    stock: random.int(0, 500),
    barcode: String(random.int(100_000_000, 999_999_999)),
    weightGrams: random.int(100, 5_000),
    options: Object.fromEntries(options.map((option, i) => [option.name, choices[i] as string])),
    image: image(random, id, index + 10),
  };
}

function product(random: Random, id: number): Product {
  const brand = random.pick(brands);
  const title = [brand, words(random, loremWords, 2), random.pick(nouns)].join(' ');
  const sku = ['P', String(id).padStart(6, '0')].join('-');
  const price = money(random, 5, 900);
  const optionNames = Object.keys(optionValues).slice(0, random.int(2, 3));
  const options = optionNames.map((name) => ({
    name,
    values: (optionValues[name] as readonly string[]).slice(0, random.int(2, 5)),
  }));
  const variants = Array.from({ length: random.int(9, 13) }, (_, v) =>
    variant(random, id, v, price, options),
  );
  const histogram = Array.from({ length: 5 }, () => random.int(0, 400));
  const count = histogram.reduce((sum, n) => sum + n, 0);
  const stars = histogram.reduce((sum, n, i) => sum + n * (i + 1), 0);
  const createdAt = dateInAYear(random);
  return {
    id,
    sku,
    title,
    slug: title.toLowerCase().split(' ').join('-'),
    description: words(random, loremWords, random.int(120, 170)),
    brand,
    categories: [random.pick(categoryTree), random.pick(categoryTree), random.pick(nouns)],
    tags: Array.from({ length: random.int(3, 8) }, () => random.pick(tagWords)),
    price: { amount: price, currency: 'USD' },
    // Absent on most products, as on a real catalogue: the optional path gets exercised too.
    ...(random.next() < 0.3
      ? { compareAtPrice: { amount: money(random, 900, 1_200), currency: 'USD' } }
      : {}),
    options,
    images: Array.from({ length: random.int(3, 6) }, (_, index) => image(random, id, index)),
    dimensions: {
      length: float(random, 5, 120, 1),
      width: float(random, 5, 80, 1),
      height: float(random, 1, 60, 1),
      weight: float(random, 0.1, 25, 2),
      unit: random.next() < 0.8 ? 'cm' : 'in',
    },
    vendor: {
      id: random.int(1, 500),
      name: [brand, random.pick(['Ltd', 'GmbH', 'Inc', 'SA'])].join(' '),
      country: random.pick(countries),
      city: random.pick(cities),
      website: ['https://', brand.toLowerCase(), '.example.com'].join(''),
      verified: random.next() < 0.7,
    },
    ratings: { average: count === 0 ? 0 : Math.round((stars / count) * 100) / 100, count, histogram },
    variants,
    attributes: Object.fromEntries(
      attributeKeys.slice(0, random.int(3, 7)).map((key) => [key, words(random, loremWords, 3)]),
    ),
    active: random.next() < 0.9,
    createdAt,
    updatedAt: new Date(createdAt.getTime() + random.int(0, 86_400_000)),
  };
}

export function products(count = 200, seed = 1): Product[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => product(random, i + 1));
}

export const productsDataset: Dataset<Product> = {
  name: 'products',
  description: 'nested catalogue documents of ~6.3 KB JSON (variants, images, prices, maps), one at a time',
  schema: Product,
  defaultCount: 200,
  unit: 'item',
  generate: products,
};
