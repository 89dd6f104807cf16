export type {
  EnumOptions,
  Field,
  FieldInput,
  FieldMeta,
  InferFields,
  InferInputFields,
  Int64Options,
  NamedOptions,
  ObjectOptions,
  SmallIntOptions,
  TimestampOptions,
} from './builders.js';
export * as t from './builders.js';
export { withDefaults } from './defaults.js';
export { assignFieldNumbers, maxFieldNumber } from './field-numbers.js';
export type { HttpBinding, HttpRule, HttpVerb } from './http-rule.js';
export {
  type SchemaDocument,
  schemaFormat,
  schemaFormatVersion,
  schemaFromJson,
  schemaToJson,
} from './json-form.js';
export { fromJsonValue, toJsonValue } from './json-value.js';
export { type InferOptions, inferSchema } from './schema-from-samples.js';
export {
  isService,
  type MethodOptions,
  type ServiceOptions,
  serviceName,
  type UnaryMethodOptions,
} from './service.js';
export type * from './service-types.js';
export { type StandardResult, type StandardSchemaV1, standardSchema } from './standard-schema.js';
export type * from './types.js';
export { assert, is, type ValidateOptions, validate } from './validate.js';
export { childrenOf, deref, fullName, namedTypes } from './walk.js';
