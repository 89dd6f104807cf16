/**
 * The built-in datasets of the bench lab, by name (also `wirekit-ts/datasets`, with their schemas, for
 * examples and for trying formats on realistic data). Each is deterministic from its seed, with the
 * item count as a parameter, and its values valid against its schema and carried by every format.
 */
import { accountsDataset } from './accounts.js';
import { catalogDataset, catalogEachDataset } from './catalog.js';
import type { Dataset } from './dataset.js';
import { documentsDataset } from './documents.js';
import { messagesDataset } from './messages.js';
import { ordersDataset } from './orders.js';
import { productsDataset } from './products.js';
import { Record8, records } from './records.js';
import { statusesDataset, statusesEachDataset } from './statuses.js';
import { flatten } from './text.js';
import { timeseriesDataset } from './timeseries.js';
import { usersDataset } from './users.js';

export { Account, accounts } from './accounts.js';
export { Catalog, catalogs } from './catalog.js';
export type { Dataset } from './dataset.js';
export { documents, OrderDocument } from './documents.js';
export { Message, messages } from './messages.js';
export { Customer, orders } from './orders.js';
export { Product, products } from './products.js';
export { Record8, records } from './records.js';
export { Status, statuses } from './statuses.js';
export { flat, flatten } from './text.js';
export { Reading, type TimeseriesColumns, timeseries, timeseriesColumns } from './timeseries.js';
export { User, users } from './users.js';

export const recordsDataset: Dataset<Record8> = {
  name: 'records',
  description: 'flat records of 8 mixed fields (ints, strings, a flag, a float, a timestamp, a list)',
  schema: Record8,
  defaultCount: 5_000,
  unit: 'batch',
  // records.ts builds names and emails with template literals, which V8 keeps as ropes: flatten
  // them here so its output stays exactly as before while encoders see flat strings.
  generate: (count, seed) => flatten(records(count, seed)),
};

export const datasets: Record<string, Dataset> = Object.freeze({
  users: usersDataset,
  records: recordsDataset,
  products: productsDataset,
  orders: ordersDataset,
  documents: documentsDataset,
  messages: messagesDataset,
  accounts: accountsDataset,
  timeseries: timeseriesDataset,
  statuses: statusesDataset,
  'statuses-each': statusesEachDataset,
  catalog: catalogDataset,
  'catalog-each': catalogEachDataset,
});
