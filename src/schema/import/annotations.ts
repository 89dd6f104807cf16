/**
 * What a JSON Schema document says beside its kinds: the dialect it is written in, a property's
 * description, deprecation and default (which wirekit keeps as the field's), OpenAPI's
 * discriminator. None of them changes a validator's verdict except the dialect, which is checked.
 */
import { isWirekitError } from '../../errors/index.js';
import type { FieldMeta } from '../builders.js';
import { fromJsonValue } from '../json-value.js';
import type { JsonValue, Schema } from '../types.js';
import { childPointer, importError, isJsonObject, type JsonObject } from './json-document.js';

/** The dialects read: 2020-12, 2019-09, draft-07 and draft-06 (which differ in nothing read here). */
const dialects = /^https?:\/\/json-schema\.org\/(draft\/2020-12|draft\/2019-09|draft-07|draft-06)\/schema#?$/;

/** Refuses a root `$schema` naming another dialect (draft-04's boolean exclusive bounds, say). */
export function checkDialect(root: JsonValue): void {
  const dialect = isJsonObject(root) ? root.$schema : undefined;
  if (dialect === undefined) return;
  if (typeof dialect !== 'string' || !dialects.test(dialect)) {
    throw importError(
      '#/$schema',
      `the dialect ${JSON.stringify(dialect)} is not read; wirekit reads JSON Schema 2020-12, 2019-09, draft-07 and draft-06 (and OpenAPI 3.0/3.1 schemas).`,
    );
  }
}

/**
 * A property's description, deprecation and default as the field's. A default is only an annotation
 * to a JSON Schema validator; wirekit's readers fill it in where a value lacks the field, so it is
 * read as the JSON form of the field's value and refused when it is not one.
 */
export function fieldMeta(property: JsonObject, schema: Schema, pointer: string): FieldMeta {
  const doc = stringOr(property.description);
  const meta: { -readonly [K in keyof FieldMeta]: FieldMeta[K] } = {};
  if (doc !== undefined) meta.doc = doc;
  if (property.deprecated === true) meta.deprecated = true;
  if ('default' in property) {
    try {
      meta.default = fromJsonValue(schema, property.default);
    } catch (error) {
      if (!isWirekitError(error)) throw error;
      throw importError(
        childPointer(pointer, 'default'),
        `the default is no value of the property: ${error.message}`,
      );
    }
  }
  return meta;
}

/** OpenAPI's `discriminator.propertyName`, the tag a tagged union of the branches must use. */
export function discriminatorOf(node: JsonObject, pointer: string): string | undefined {
  const discriminator = node.discriminator;
  if (discriminator === undefined) return undefined;
  const name = isJsonObject(discriminator) ? discriminator.propertyName : undefined;
  if (typeof name !== 'string') {
    throw importError(childPointer(pointer, 'discriminator'), 'discriminator.propertyName must be a string.');
  }
  return name;
}

export function stringOr(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
