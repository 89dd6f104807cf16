/**
 * Checks that the schema of incoming IPC data is the codec's schema. Types must agree wherever
 * they decide what the bytes mean (widths, signedness, units, precision and scale, nesting, union
 * variants in order); what other writers legitimately vary is let through: nullability (a null
 * where the codec's schema allows none fails when it is met), list and map child names, union child
 * names and type codes, timezone names, dictionary ids and index widths, and all metadata.
 */
import { type DataType, type Dictionary, type Field, Type } from 'apache-arrow';
import { mismatch } from '../errors.js';
import type { EnumPlan, Plan, RootPlan, StructPlan } from './plan.js';

/** The enum each incoming dictionary id decodes to. */
export type EnumBindings = Map<number, EnumPlan>;

export function matchSchema(root: RootPlan, fields: readonly Field[], offset: number): EnumBindings {
  const enums: EnumBindings = new Map();
  const fail = (where: string, message: string): never => {
    throw mismatch(offset, `Arrow: ${where === '' ? 'the schema' : `field ${where}`}: ${message}`);
  };
  matchStruct(root.struct, fields, '', enums, fail);
  return enums;
}

type Fail = (where: string, message: string) => never;

function matchStruct(
  plan: StructPlan,
  fields: readonly Field[],
  where: string,
  enums: EnumBindings,
  fail: Fail,
): void {
  const names = plan.columns.map((column) => column.name);
  const got = fields.map((field) => field.name);
  if (names.length !== got.length || names.some((name, i) => name !== got[i])) {
    fail(where, `expected the fields ${names.join(', ') || '(none)'}, got ${got.join(', ') || '(none)'}`);
  }
  plan.columns.forEach((column, i) => {
    matchType(
      column.plan,
      (fields[i] as Field).type,
      where === '' ? column.name : `${where}.${column.name}`,
      enums,
      fail,
    );
  });
}

function matchType(plan: Plan, type: DataType, where: string, enums: EnumBindings, fail: Fail): void {
  const wrong = (): never => fail(where, `expected ${plan.type}, got ${type}`);
  if (plan.k === 'enum') {
    if (type.typeId !== Type.Dictionary) wrong();
    const dictionary = type as Dictionary;
    const indices = dictionary.indices;
    if (dictionary.dictionary.typeId !== Type.Utf8 || indices.bitWidth > 32) wrong();
    const bound = enums.get(dictionary.id);
    if (bound !== undefined && bound.members.join('\n') !== plan.members.join('\n'))
      fail(where, `dictionary ${dictionary.id} also serves another enum`);
    enums.set(dictionary.id, plan);
    return;
  }
  if (type.typeId === Type.Dictionary || type.typeId !== plan.type.typeId) wrong();
  switch (plan.k) {
    case 'int':
    case 'int64': {
      const [want, got] = [plan.type, type] as unknown as { bitWidth: number; isSigned: boolean }[];
      if (want?.bitWidth !== got?.bitWidth || want?.isSigned !== got?.isSigned) wrong();
      return;
    }
    case 'float':
    case 'timestamp':
    case 'decimal': {
      const keys =
        plan.k === 'float'
          ? ['precision']
          : plan.k === 'timestamp'
            ? ['unit']
            : ['precision', 'scale', 'bitWidth'];
      const want = plan.type as unknown as Record<string, unknown>;
      const got = type as unknown as Record<string, unknown>;
      if (keys.some((key) => want[key] !== got[key])) wrong();
      return;
    }
    case 'literal':
      matchType(plan.storage, type, where, enums, fail);
      return;
    case 'struct':
      matchStruct(plan, type.children, where, enums, fail);
      return;
    case 'list':
      matchType(plan.item, (type.children[0] as Field).type, `${where}[]`, enums, fail);
      return;
    case 'map': {
      const [key, value] = (type.children[0] as Field).type.children as Field[];
      if (key === undefined || value === undefined) {
        wrong();
        return;
      }
      matchType(plan.key, key.type, `${where}{key}`, enums, fail);
      matchType(plan.value, value.type, `${where}{value}`, enums, fail);
      return;
    }
    case 'union': {
      const children = type.children as Field[];
      if ((type as unknown as { mode: number }).mode !== 1 || children.length !== plan.variants.length)
        wrong();
      plan.variants.forEach((variant, i) => {
        const child = (children[i] as Field).type;
        if (child.typeId !== Type.Struct) wrong();
        matchStruct(variant.plan, child.children, `${where}<${variant.tag}>`, enums, fail);
      });
      return;
    }
    default:
      return;
  }
}
