/**
 * The schema `wirekit decode` reads an Avro container's values by when it is given none: the
 * writer's schema the container embeds, read as a wirekit schema. The file says what it holds, so
 * nothing is guessed; a writer's schema wirekit cannot read says how to go on.
 */
import { containerSchemaText, schemaFromAvro } from '../codecs/avro/inspect.js';
import type { DecodeLimits } from '../codecs/index.js';
import { isWirekitError, WirekitError } from '../errors/index.js';
import type { Schema } from '../schema/index.js';

export function avroContainerSchema(bytes: Uint8Array, limits: DecodeLimits): Schema {
  const schemaText = containerSchemaText(bytes, limits);
  try {
    return schemaFromAvro(schemaText);
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    throw new WirekitError(
      error.code,
      `the container's writer schema has no wirekit schema (${error.message}); pass --schema S.json to read it by yours.`,
      { cause: error },
    );
  }
}
