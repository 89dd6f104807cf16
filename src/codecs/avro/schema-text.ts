/**
 * The JSON of an Avro schema given as text (an .avsc file, a container's header, a registry's
 * reply). A bare name (`string`, `com.acme.Order`) is a schema too, as Avro's parsers read it; any
 * other text that is not JSON is refused with the line and column of its first fault, which
 * JSON.parse does not always give.
 */
import { SchemaImportError } from '../../errors/index.js';
import { findJsonFault, lineAndColumnOf } from '../../util/json-syntax.js';

const bareName = /^[A-Za-z_][A-Za-z0-9_.]*$/;

export function avroSchemaJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const trimmed = text.trim();
    if (bareName.test(trimmed)) return trimmed;
  }
  const fault = findJsonFault(text);
  const place =
    fault === undefined || fault.kind === 'truncated' ? {} : lineAndColumnOf(text, fault.position);
  let reason = 'JSON.parse refused it';
  if (fault?.kind === 'truncated') reason = 'it ends inside a value';
  else if (fault?.kind === 'malformed') reason = `expected ${fault.expected}`;
  else if (fault !== undefined) reason = 'unexpected text';
  throw new SchemaImportError(`the Avro schema is not JSON: ${reason}.`, { format: 'avro', ...place });
}
