/**
 * `records`: flat records of 8 mixed fields (ints, strings, a flag, a float, a timestamp, a string
 * list), the shape behind the published "5,000 records" figures for each format.
 */
import { type Infer, t } from '../../schema/index.js';
import { seededRandom } from '../random.js';

export const Record8 = t.object('Record', {
  id: t.uint32(),
  name: t.string(),
  email: t.string(),
  age: t.uint8(),
  active: t.bool(),
  score: t.float64(),
  createdAt: t.timestamp(),
  tags: t.array(t.string()),
});

export type Record8 = Infer<typeof Record8>;

const firstNames = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Radia', 'Tim'];
const lastNames = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Thompson',
  'Perlman',
];
const tagWords = ['alpha', 'beta', 'gamma', 'delta', 'admin', 'staff', 'trial', 'vip', 'eu', 'us'];

export function records(count = 5_000, seed = 1): Record8[] {
  const random = seededRandom(seed);
  const out: Record8[] = [];
  for (let i = 0; i < count; i++) {
    const first = random.pick(firstNames);
    const last = random.pick(lastNames);
    out.push({
      id: i + 1,
      name: `${first} ${last}`,
      email: `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com`,
      age: random.int(18, 90),
      active: random.next() < 0.7,
      score: Math.round(random.next() * 1_000_000) / 100,
      createdAt: new Date(1_700_000_000_000 + random.int(0, 31_536_000) * 1000 + random.int(0, 999)),
      tags: Array.from({ length: random.int(0, 4) }, () => random.pick(tagWords)),
    });
  }
  return out;
}
