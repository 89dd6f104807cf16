/**
 * The declared inspection surface of Avro: what `wirekit inspect` and `wirekit decode` read of Avro
 * they have no wirekit schema for (a container's header, a registry's writer schema, read as a
 * wirekit schema). Tools outside the codecs import this entry (or index.ts), never the format's
 * other files.
 */
export {
  type AvroContainerInfo,
  containerSchemaText,
  describeAvroContainer,
} from './decode/describe-container.js';
export { schemaFromAvro } from './schema-from-avro.js';
