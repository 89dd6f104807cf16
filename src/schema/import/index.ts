export type { ImportLimits } from './json-document.js';
export { type JsonSchemaImportOptions, schemaFromJsonSchema } from './json-schema.js';
