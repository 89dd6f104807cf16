/**
 * The declared inspection surface of the events boundary: what `wirekit inspect --registry` needs
 * beyond the public entry (index.ts) to read a Confluent-framed event as a consumer would: the
 * frame's header length, a registry's .proto parsed into messages to read a Protobuf datum by, and
 * the schemas a writer schema's references name, fetched as the event codec fetches them.
 * Tools outside the boundaries import this entry (or index.ts), never the boundary's other files.
 */

export type { ReferencedSchema, ResolvedDefinition } from './compatibility/index.js';
export { messageAt } from './compatibility/protobuf-indexes.js';
export type { ProtoFieldType, ProtoMessage } from './compatibility/protobuf-schema.js';
export { confluentHeaderBytes } from './framing.js';
export type { SubjectVersionRef } from './registry/client.js';
export { fetchReferenced } from './writer-references.js';
