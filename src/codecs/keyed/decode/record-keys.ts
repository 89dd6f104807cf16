/**
 * The keys of a record structure (msgpackr's record extension, read by MessagePack's records
 * mode): what a definition names, in its order, and for the object plans reading it, which field
 * each key is. The source keeps structures across values (decode/source.ts), so each plan's answer
 * is worked out once; the last one is checked first, since a structure is mostly read as one plan.
 */
import type { FieldPlan, Plan } from '../plan.js';

/** Field indexes by field name, per object plan; kept as long as the plan. */
const fieldIndexes = new WeakMap<Plan, Map<string, number>>();

export class RecordKeys {
  private lastPlan: Plan | undefined;
  private lastFields: Int32Array = new Int32Array(0);
  /** Every plan's answer, for a structure read as several (the same keys in two object types). */
  private readonly byPlan = new Map<Plan, Int32Array>();

  constructor(readonly names: readonly string[]) {}

  /** For each key, the index of the field of `plan` it names, or -1 for a key the schema does not know. */
  fieldsOf(plan: Plan): Int32Array {
    if (this.lastPlan === plan) return this.lastFields;
    let fields = this.byPlan.get(plan);
    if (fields === undefined) {
      fields = fieldIndexesOf(this.names, plan);
      this.byPlan.set(plan, fields);
    }
    this.lastPlan = plan;
    this.lastFields = fields;
    return fields;
  }
}

function fieldIndexesOf(names: readonly string[], plan: Plan): Int32Array {
  let byName = fieldIndexes.get(plan);
  if (byName === undefined) {
    byName = new Map(plan.fields.map((field: FieldPlan, i) => [field.name, i]));
    fieldIndexes.set(plan, byName);
  }
  const fields = new Int32Array(names.length);
  for (let i = 0; i < fields.length; i++) fields[i] = byName.get(names[i] as string) ?? -1;
  return fields;
}
