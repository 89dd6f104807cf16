/**
 * `oneof` groups of an object (ObjectSchema.oneofs): optional fields, each keeping its own name and
 * number, of which a value holds at most one. This is how a `.proto` file's `oneof` imports without
 * changing a byte: protobuf writes each member as a field of the message and its JSON mapping writes
 * them flat, so the group is a constraint on the object's fields, not a value of its own (that is
 * `t.either`, which Protocol Buffers carries as a wrapper message).
 *
 * The constraint has one home, `oneofRule`: `validate` reports it, every encoder refuses a value
 * that breaks it, and every decoder but Protocol Buffers' refuses to build one (protobuf's own rule
 * on the wire is that the last member read wins, which its reader keeps: decode/message.ts).
 */
import { WirekitError } from '../errors/index.js';
import { fieldOf } from './names.js';
import type { FieldDef, ObjectSchema, OneofGroup } from './types.js';
import { type Rule, refused } from './value-rules.js';

/** `t.object`'s `oneofs` option: each group's name and its members' field names. */
export type OneofsInput = Readonly<Record<string, readonly string[]>>;

function invalid(message: string): never {
  throw new WirekitError('WK_SCHEMA_INVALID', message);
}

/**
 * The groups of an object, checked: each has a name that is an identifier and no field's, at least
 * one member, and each member is an optional field of the object that no other group holds (a
 * field of two groups would make "at most one" ambiguous, and protobuf has no such thing).
 */
export function oneofGroups(
  objectName: string,
  fields: readonly FieldDef[],
  input: OneofsInput | undefined,
): readonly OneofGroup[] | undefined {
  if (input === undefined) return undefined;
  const byName = new Map(fields.map((field) => [field.name, field]));
  const owner = new Map<string, string>();
  const groups = Object.entries(input).map(([name, members]): OneofGroup => {
    const where = `${objectName}: oneof '${name}'`;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) invalid(`${where}: the name must be an identifier.`);
    if (byName.has(name)) invalid(`${where}: a field has the same name.`);
    if (!Array.isArray(members) || members.length === 0) invalid(`${where}: needs at least one member.`);
    for (const member of members) {
      const field = typeof member === 'string' ? byName.get(member) : undefined;
      if (field === undefined) invalid(`${where}: ${JSON.stringify(member)} is not a field of the object.`);
      if (field.schema.kind !== 'optional') {
        invalid(
          `${where}: member '${member}' must be an optional field (t.optional), since at most one is present.`,
        );
      }
      const other = owner.get(member);
      if (other !== undefined) invalid(`${where}: member '${member}' is already in oneof '${other}'.`);
      owner.set(member, name);
    }
    return Object.freeze({ name, fields: Object.freeze([...members]) });
  });
  return groups.length === 0 ? undefined : Object.freeze(groups);
}

const rules = new WeakMap<ObjectSchema, Rule<Record<string, unknown>>>();

/**
 * The rule of an object's groups, or undefined for an object without any (most objects: their
 * encoders and decoders then pay nothing). The refusal names the group and the first two members
 * present.
 */
export function oneofRule(schema: ObjectSchema): Rule<Record<string, unknown>> | undefined {
  const groups = schema.oneofs;
  if (groups === undefined) return undefined;
  let rule = rules.get(schema);
  if (rule === undefined) {
    rule = (record) => {
      for (const group of groups) {
        let first: string | undefined;
        for (const member of group.fields) {
          if (fieldOf(record, member) === undefined) continue;
          if (first === undefined) first = member;
          else return conflict(group.name, first, member);
        }
      }
      return undefined;
    };
    rules.set(schema, rule);
  }
  return rule;
}

function conflict(group: string, first: string, second: string) {
  return {
    issue: 'oneof_conflict' as const,
    message: `'${first}' and '${second}' are both present, but oneof '${group}' holds at most one.`,
  };
}

/** The group each member field belongs to, by field name (the Protocol Buffers reader clears the others). */
export function groupOfField(schema: ObjectSchema): ReadonlyMap<string, OneofGroup> {
  const out = new Map<string, OneofGroup>();
  for (const group of schema.oneofs ?? []) for (const member of group.fields) out.set(member, group);
  return out;
}

/**
 * Throws what every encoder throws for a value that breaks its object's groups (WK_VALIDATION_FAILED,
 * path empty: the encoder puts the object's path in front). Encoders call it only for an object
 * whose schema has groups, so others pay one property read.
 */
export function keepOneofs(schema: ObjectSchema, record: Record<string, unknown>): void {
  const refusal = oneofRule(schema)?.(record);
  if (refusal !== undefined) throw refused(refusal);
}
