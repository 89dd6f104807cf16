export { arrowMetadataKeys, arrowSchemaToJson, toArrowSchema } from './arrow.js';
export { type AvroExportOptions, type AvroSchemaJson, toAvro } from './avro.js';
export { type FlatBuffersOptions, maxSlotGap, toFlatBuffers } from './flatbuffers.js';
export { type JsonSchemaExportOptions, jsonSchemaDialect, toJsonSchema } from './json-schema.js';
export { wirekitJsonSchemaKeywords } from './json-schema-annotations.js';
export { type ProtoOptions, toProto } from './proto.js';
export { type TypeScriptOptions, toTypeScript } from './typescript.js';
