/**
 * The datasets the overhead benchmark runs on, with their default sizes and how each is measured.
 */

import {
  Account,
  accounts,
  Catalog,
  catalogs,
  documents,
  Message,
  messages,
  OrderDocument,
  Product,
  products,
  Reading,
  Record8,
  records,
  Status,
  statuses,
  timeseries,
  User,
  users,
} from 'wirekit-ts/lab';
import type { ObjectSchema } from 'wirekit-ts/schema';

/**
 * The datasets this benchmark runs on, with their default sizes and how they are measured:
 * `batch`, the whole dataset as one array in one call; `item`, one call per item (the cache and RPC
 * shape, where a codec's fixed cost per call shows). `orders` is left out: its integer-keyed Maps
 * and shared references are no JSON, so native JSON would be no yardstick (the lab compares it
 * through the JSON form of values). Where values hold bytes, native JSON times their JSON form
 * (`jsonForm`: base64 text, ISO dates), the text wirekit's JSON codec writes for them, since
 * JSON.stringify cannot carry a Uint8Array. `statuses` (API statuses, ~3 KB each) and `catalog`
 * (catalogs of ~1 MB keyed by numeric ids) are the shapes of issue 35, each both ways.
 */
export const overheadDatasets = {
  records: { schema: Record8, generate: records, count: 5_000, unit: 'batch', jsonForm: false },
  users: { schema: User, generate: users, count: 5_000, unit: 'batch', jsonForm: false },
  'users-each': { schema: User, generate: users, count: 1_000, unit: 'item', jsonForm: false },
  timeseries: { schema: Reading, generate: timeseries, count: 100_000, unit: 'batch', jsonForm: false },
  products: { schema: Product, generate: products, count: 200, unit: 'batch', jsonForm: false },
  documents: { schema: OrderDocument, generate: documents, count: 2_000, unit: 'batch', jsonForm: true },
  'documents-each': {
    schema: OrderDocument,
    generate: documents,
    count: 2_000,
    unit: 'item',
    jsonForm: true,
  },
  messages: { schema: Message, generate: messages, count: 50_000, unit: 'item', jsonForm: false },
  accounts: { schema: Account, generate: accounts, count: 1_000, unit: 'batch', jsonForm: false },
  statuses: { schema: Status, generate: statuses, count: 1_000, unit: 'batch', jsonForm: false },
  'statuses-each': { schema: Status, generate: statuses, count: 1_000, unit: 'item', jsonForm: false },
  catalog: { schema: Catalog, generate: catalogs, count: 4, unit: 'batch', jsonForm: false },
  'catalog-each': { schema: Catalog, generate: catalogs, count: 4, unit: 'item', jsonForm: false },
} as const satisfies Record<string, OverheadDataset>;

export interface OverheadDataset {
  readonly schema: ObjectSchema;
  readonly generate: (count: number) => unknown[];
  readonly count: number;
  readonly unit: Unit;
  readonly jsonForm: boolean;
}

/** One array of every item per call, or one call per item. */
export type Unit = 'batch' | 'item';
