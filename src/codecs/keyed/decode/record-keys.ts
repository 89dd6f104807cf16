/**
 * The keys of a record structure (msgpackr's record extension, read by MessagePack's records
 * mode): what a definition names, in its order, and for the object plan reading it, which field
 * each key is. A structure is read as one plan nearly always (the rows of one array), so the last
 * plan's answer is kept on the structure.
 */
import type { FieldPlan, Plan } from '../plan.js';

/** Field indexes by field name, per object plan; kept as long as the plan. */
const fieldIndexes = new WeakMap<Plan, Map<string, number>>();

export class RecordKeys {
  private lastPlan: Plan | undefined;
  private lastFields = new Int32Array(0);

  constructor(readonly names: readonly string[]) {}

  /** For each key, the index of the field of `plan` it names, or -1 for a key the schema does not know. */
  fieldsOf(plan: Plan): Int32Array {
    if (this.lastPlan === plan) return this.lastFields;
    let byName = fieldIndexes.get(plan);
    if (byName === undefined) {
      byName = new Map(plan.fields.map((field: FieldPlan, i) => [field.name, i]));
      fieldIndexes.set(plan, byName);
    }
    const fields = new Int32Array(this.names.length);
    for (let i = 0; i < fields.length; i++) fields[i] = byName.get(this.names[i] as string) ?? -1;
    this.lastPlan = plan;
    this.lastFields = fields;
    return fields;
  }
}
