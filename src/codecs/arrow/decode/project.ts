/**
 * The columns a codec reads out of incoming data whose structs hold other columns too, or hold
 * them in another order: the codec's schema names its fields, a peer may add its own (a newer
 * writer's column) or order them otherwise. Under `unknownKeys: 'ignore'` such data is read by
 * handing the readers a view of it with the codec's columns only, in the codec's order, at every
 * level (structs in lists, map values, union variants): the readers never learn there was more.
 * The view shares the input's buffers; the columns left out are checked as loaded (load.ts), never
 * read into values.
 */
import {
  type Data,
  type DataType,
  type Field,
  FixedSizeList,
  LargeList,
  List,
  Map_,
  Struct,
  Type,
  Union,
} from 'apache-arrow';

/** How to pick the codec's columns out of one incoming column; only where they differ. */
export type Projection =
  | {
      readonly k: 'struct';
      readonly type: Struct;
      /** Per codec column, the incoming child it is and how to pick inside it. */
      readonly children: readonly { readonly from: number; readonly inner: Projection | undefined }[];
    }
  | { readonly k: 'list'; readonly type: DataType; readonly item: Projection }
  | {
      readonly k: 'map';
      readonly type: DataType;
      readonly entries: Struct;
      readonly key: Projection | undefined;
      readonly value: Projection | undefined;
    }
  | { readonly k: 'union'; readonly type: DataType; readonly variants: readonly (Projection | undefined)[] };

/** `field` with its type replaced by what `inner` makes of it. */
function projectedField(field: Field, inner: Projection | undefined): Field {
  return inner === undefined ? field : field.clone({ type: inner.type });
}

/** The projection of a struct whose codec columns are incoming children `from` (see Projection). */
export function structProjection(
  fields: readonly Field[],
  children: readonly { readonly from: number; readonly inner: Projection | undefined }[],
): Projection | undefined {
  const same =
    children.length === fields.length &&
    children.every((child, i) => child.from === i && child.inner === undefined);
  if (same) return undefined;
  const type = new Struct(children.map((child) => projectedField(fields[child.from] as Field, child.inner)));
  return { k: 'struct', type, children };
}

/** The projection of a list of `type` whose items need `item`. */
export function listProjection(type: DataType, item: Projection | undefined): Projection | undefined {
  if (item === undefined) return undefined;
  const child = projectedField(type.children[0] as Field, item);
  const projected =
    type.typeId === Type.LargeList
      ? new LargeList(child)
      : type.typeId === Type.FixedSizeList
        ? new FixedSizeList((type as FixedSizeList).listSize, child)
        : new List(child);
  return { k: 'list', type: projected, item };
}

/** The projection of a map of `type` whose keys or values need one. */
export function mapProjection(
  type: DataType,
  key: Projection | undefined,
  value: Projection | undefined,
): Projection | undefined {
  if (key === undefined && value === undefined) return undefined;
  const entriesField = type.children[0] as Field<Struct>;
  const [keyField, valueField] = entriesField.type.children as [Field, Field];
  const entries = new Struct([projectedField(keyField, key), projectedField(valueField, value)]);
  const projected = new Map_(entriesField.clone({ type: entries }), (type as Map_).keysSorted);
  return { k: 'map', type: projected, entries, key, value };
}

/** The projection of a union of `type` whose variants need one. */
export function unionProjection(
  type: DataType,
  variants: readonly (Projection | undefined)[],
): Projection | undefined {
  if (variants.every((variant) => variant === undefined)) return undefined;
  const union = type as Union;
  const children = (type.children as Field[]).map((field, i) => projectedField(field, variants[i]));
  return { k: 'union', type: new Union(union.mode, [...union.typeIds], children), variants };
}

/** `data` as the codec's columns: a view over the same buffers (see the module comment). */
export function projectData(projection: Projection, data: Data): Data {
  switch (projection.k) {
    case 'struct':
      return withChildren(
        data,
        projection.type,
        projection.children.map(({ from, inner }) => pick(inner, data.children[from] as Data)),
      );
    case 'list':
      return withChildren(data, projection.type, [projectData(projection.item, data.children[0] as Data)]);
    case 'map': {
      const entries = data.children[0] as Data;
      const [keys, values] = entries.children as [Data, Data];
      const projected = withChildren(entries, projection.entries, [
        pick(projection.key, keys),
        pick(projection.value, values),
      ]);
      return withChildren(data, projection.type, [projected]);
    }
    case 'union':
      return withChildren(
        data,
        projection.type,
        projection.variants.map((inner, i) => pick(inner, data.children[i] as Data)),
      );
  }
}

function pick(projection: Projection | undefined, data: Data): Data {
  return projection === undefined ? data : projectData(projection, data);
}

/** `data` typed as `type` over `children`, its own offset, length, nulls and buffers kept. */
function withChildren(data: Data, type: DataType, children: Data[]): Data {
  return data.clone(type, undefined, undefined, undefined, undefined, children);
}
