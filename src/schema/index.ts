export type {
  FieldInput,
  FieldMeta,
  InferFields,
  Int64Options,
  NamedOptions,
  ObjectOptions,
} from './builders.js';
export * as t from './builders.js';
export { assignFieldNumbers, maxFieldNumber } from './field-numbers.js';
export type * from './types.js';
export { childrenOf, deref, fullName, namedTypes } from './walk.js';
