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
import { type ObjectSchema, type Schema, t } from 'wirekit-ts/schema';

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
  // The same values with every decimal declared a plain string (`-text`): what a binary decimal
  // costs a format over carrying its text (issue 35), beside the decimal rows of the same run.
  'products-text': {
    schema: decimalsAsText(Product),
    generate: products,
    count: 200,
    unit: 'batch',
    jsonForm: false,
  },
  documents: { schema: OrderDocument, generate: documents, count: 2_000, unit: 'batch', jsonForm: true },
  'documents-text': {
    schema: decimalsAsText(OrderDocument),
    generate: documents,
    count: 2_000,
    unit: 'batch',
    jsonForm: true,
  },
  'documents-each': {
    schema: OrderDocument,
    generate: documents,
    count: 2_000,
    unit: 'item',
    jsonForm: true,
  },
  'documents-each-text': {
    schema: decimalsAsText(OrderDocument),
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

/**
 * `schema` with every `t.decimal` replaced by `t.string()`: the same values ("871.70") carried as
 * text. Schemas are plain frozen data, so the copy is made by spreading nodes; a node met twice
 * (a shared named object) is copied once. References (`t.lazy`) are not followed: no dataset of
 * this benchmark with decimals has one, and one would be refused rather than left half-converted.
 */
function decimalsAsText<S extends Schema>(schema: S): S {
  const copies = new Map<Schema, Schema>();
  const copy = (node: Schema): Schema => {
    const known = copies.get(node);
    if (known !== undefined) return known;
    let out: Schema;
    switch (node.kind) {
      case 'decimal':
        out = t.string();
        break;
      case 'object':
        out = { ...node, fields: node.fields.map((field) => ({ ...field, schema: copy(field.schema) })) };
        break;
      case 'array':
        out = { ...node, items: copy(node.items) };
        break;
      case 'map':
        out = { ...node, values: copy(node.values) };
        break;
      case 'optional':
      case 'nullable':
        out = { ...node, inner: copy(node.inner) } as Schema;
        break;
      case 'union':
        out = { ...node, variants: node.variants.map((variant) => copy(variant) as ObjectSchema) };
        break;
      case 'either':
        out = { ...node, branches: node.branches.map(copy) };
        break;
      case 'ref':
        throw new Error(`decimalsAsText: a reference (${node.name}) is not followed`);
      default:
        out = node;
    }
    copies.set(node, out);
    return out;
  };
  return copy(schema) as S;
}
