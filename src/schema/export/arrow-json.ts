/**
 * An Arrow schema as readable JSON, in the shape of the schema part of Arrow's integration-testing
 * JSON format (https://arrow.apache.org/docs/format/Integration.html): fields with name, nullable,
 * type, children, and for dictionary-encoded fields the value type plus a `dictionary` block.
 */
import {
  type Schema as ArrowSchema,
  DataType,
  DateUnit,
  type Field,
  IntervalUnit,
  Precision,
  TimeUnit,
  Type,
  UnionMode,
} from 'apache-arrow';
import type { JsonValue } from '../types.js';

export function arrowSchemaToJson(schema: ArrowSchema): JsonValue {
  const out: { [key: string]: JsonValue } = { fields: schema.fields.map(fieldToJson) };
  if (schema.metadata.size > 0) out.metadata = metadataToJson(schema.metadata);
  return out;
}

function fieldToJson(field: Field): JsonValue {
  const { type } = field;
  // The integration format describes a dictionary field by its value type, the encoding aside.
  const valueType: DataType = DataType.isDictionary(type) ? type.dictionary : type;
  const out: { [key: string]: JsonValue } = {
    name: field.name,
    nullable: field.nullable,
    type: typeToJson(valueType),
    children: ((valueType.children as Field[] | undefined) ?? []).map(fieldToJson),
  };
  if (DataType.isDictionary(type)) {
    out.dictionary = { id: type.id, indexType: typeToJson(type.indices), isOrdered: type.isOrdered };
  }
  if (field.metadata.size > 0) out.metadata = metadataToJson(field.metadata);
  return out;
}

function typeToJson(type: DataType): JsonValue {
  if (DataType.isInt(type)) return { name: 'int', bitWidth: type.bitWidth, isSigned: type.isSigned };
  if (DataType.isFloat(type))
    return { name: 'floatingpoint', precision: Precision[type.precision] as string };
  if (DataType.isDecimal(type)) {
    return { name: 'decimal', precision: type.precision, scale: type.scale, bitWidth: type.bitWidth };
  }
  if (DataType.isTimestamp(type)) {
    return { name: 'timestamp', unit: TimeUnit[type.unit] as string, timezone: type.timezone ?? null };
  }
  if (DataType.isUnion(type)) {
    return {
      name: 'union',
      mode: (UnionMode[type.mode] as string).toUpperCase(),
      typeIds: [...type.typeIds],
    };
  }
  if (DataType.isMap(type)) return { name: 'map', keysSorted: type.keysSorted };
  if (DataType.isDate(type)) return { name: 'date', unit: DateUnit[type.unit] as string };
  if (DataType.isTime(type))
    return { name: 'time', unit: TimeUnit[type.unit] as string, bitWidth: type.bitWidth };
  if (DataType.isDuration(type)) return { name: 'duration', unit: TimeUnit[type.unit] as string };
  if (DataType.isInterval(type)) return { name: 'interval', unit: IntervalUnit[type.unit] as string };
  if (DataType.isFixedSizeBinary(type)) return { name: 'fixedsizebinary', byteWidth: type.byteWidth };
  if (DataType.isFixedSizeList(type)) return { name: 'fixedsizelist', listSize: type.listSize };
  // The rest (null, bool, utf8, binary, list, struct and their large/view forms) have no parameters.
  return { name: (Type[type.typeId] as string).toLowerCase() };
}

function metadataToJson(metadata: Map<string, string>): JsonValue {
  return [...metadata].map(([key, value]) => ({ key, value }));
}
