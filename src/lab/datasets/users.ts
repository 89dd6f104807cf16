/**
 * `users`: flat user records (id, name, email, age, subscribed flag, created timestamp, country,
 * score), the shape behind the published "10,000 users: JSON 2.3 MB vs binary 620 KB" figures.
 * Measured as one array.
 */
import { type Infer, t } from '../../schema/index.js';
import { seededRandom } from '../random.js';
import type { Dataset } from './dataset.js';
import { dateInAYear, firstNames, lastNames } from './text.js';

// biome-ignore format: a table of codes reads better in rows
export const countries = [
  'US', 'GB', 'DE', 'FR', 'JP', 'CN', 'IN', 'BR', 'CA', 'AU',
  'ES', 'IT', 'NL', 'SE', 'KR', 'MX', 'PL', 'CH', 'NG', 'ZA',
] as const;

export const Country = t.enum('Country', countries);

export const User = t.object('User', {
  // uint32 rather than uint64: Avro has no unsigned 64-bit integer, and a number stays a number.
  id: t.uint32(),
  name: t.string(),
  email: t.string(),
  age: t.uint8(),
  subscribed: t.bool(),
  createdAt: t.timestamp(),
  country: Country,
  score: t.float64(),
});

export type User = Infer<typeof User>;

const lowerFirst = firstNames.map((name) => name.toLowerCase());
const lowerLast = lastNames.map((name) => name.toLowerCase());
const domains = ['example.com', 'mail.example.org', 'inbox.example.net', 'post.example.io'];

export function users(count = 10_000, seed = 1): User[] {
  const random = seededRandom(seed);
  const out: User[] = [];
  for (let i = 0; i < count; i++) {
    const first = random.int(0, firstNames.length - 1);
    const middle = random.pick(firstNames);
    const last = random.int(0, lastNames.length - 1);
    // Ids are spread like database keys of a sampled table, not 1..n: their digits are what a real
    // payload carries. The index keeps them distinct.
    const id = 1_000_000_000 + i * 97 + random.int(0, 96);
    out.push({
      id,
      name: [firstNames[first], middle, lastNames[last]].join(' '),
      email: [lowerFirst[first], '.', lowerLast[last], String(id), '@', random.pick(domains)].join(''),
      age: random.int(18, 90),
      subscribed: random.next() < 0.4,
      createdAt: dateInAYear(random),
      country: random.pick(countries),
      // A computed score in [0, 1) at full float64 precision, as an application would hold it.
      score: random.next(),
    });
  }
  return out;
}

export const usersDataset: Dataset<User> = {
  name: 'users',
  description: 'user records of 8 fields (ids, names, emails, a flag, a timestamp, an enum, a float)',
  schema: User,
  defaultCount: 10_000,
  unit: 'batch',
  generate: users,
};
