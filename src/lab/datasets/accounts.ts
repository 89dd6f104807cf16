/**
 * `accounts`: users each with 0-20 orders of their own (a 64-bit order id within 2^53, an amount,
 * a timestamp, an enum): records with a nested list, the step from flat `users` toward documents.
 * Measured as one array.
 */
import { type Infer, t } from '../../schema/index.js';
import { seededRandom } from '../random.js';
import type { Dataset } from './dataset.js';
import { dateInAYear, firstNames, lastNames } from './text.js';
import { Country, countries } from './users.js';

const AccountOrder = t.object('AccountOrder', {
  id: t.int64({ as: 'number' }),
  amount: t.float64(),
  placedAt: t.timestamp(),
  status: t.enum('AccountOrderStatus', ['open', 'paid', 'shipped', 'cancelled']),
});

export const Account = t.object('Account', {
  id: t.uint32(),
  name: t.string(),
  email: t.string(),
  country: Country,
  createdAt: t.timestamp(),
  orders: t.array(AccountOrder),
});

export type Account = Infer<typeof Account>;

export function accounts(count = 1_000, seed = 1): Account[] {
  const random = seededRandom(seed);
  let nextOrderId = 9_000_000_000_000;
  return Array.from({ length: count }, (_, i): Account => {
    const first = random.pick(firstNames);
    const last = random.pick(lastNames);
    const id = 2_000_000 + i * 31 + random.int(0, 30);
    return {
      id,
      name: [first, last].join(' '),
      email: [first.toLowerCase(), String(id), '@example.org'].join(''),
      country: random.pick(countries),
      createdAt: dateInAYear(random),
      orders: Array.from({ length: random.int(0, 20) }, () => {
        nextOrderId += random.int(1, 5_000);
        return {
          id: nextOrderId,
          amount: Math.round(random.next() * 50_000) / 100,
          placedAt: dateInAYear(random),
          status: random.pick(['open', 'paid', 'shipped', 'cancelled'] as const),
        };
      }),
    };
  });
}

export const accountsDataset: Dataset<Account> = {
  name: 'accounts',
  description: 'users each with 0-20 orders (64-bit ids, amounts, timestamps, an enum): nested records',
  schema: Account,
  defaultCount: 1_000,
  unit: 'batch',
  generate: accounts,
};
