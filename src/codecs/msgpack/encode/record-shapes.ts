/**
 * The structures of msgpackr's record extension, as a schema fixes them: for each object plan and
 * each set of its optional fields present, the MessagePack array of the keys written, encoded once.
 * msgpackr makes a structure per key sequence it meets (its transition trie); a schema's object
 * has one sequence per set of optional fields present, in the schema's order, so the structures
 * are known before any value is written and only their ids are decided per value.
 */
import type { FieldPlan, Plan } from '../../keyed/plan.js';
import { MsgpackEmitter } from './emitter.js';

/** One structure: its keys as the definition carries them, and a number that indexes per-writer tables. */
export class RecordShape {
  constructor(
    readonly index: number,
    /** A MessagePack array of the keys' strings, the body of a record definition. */
    readonly keys: Uint8Array,
  ) {}
}

/** The structures of one object plan. */
export class PlanShapes {
  /** Whether any field may be absent (then the structure depends on which are present). */
  readonly hasOptional: boolean;
  private allPresent: RecordShape | undefined;
  private readonly byPresent = new Map<number | string, RecordShape>();

  constructor(private readonly plan: Plan) {
    this.hasOptional = plan.fields.some((field) => field.optional);
  }

  /** The structure with every field present. */
  get all(): RecordShape {
    if (this.allPresent === undefined) this.allPresent = newShape(this.plan.fields);
    return this.allPresent;
  }

  /**
   * The structure whose optional fields are the ones `present` marks, as keyed/encode/schema-writer.ts's
   * `presentFields` makes it: the sum of 2^i over their field indexes i, or for the widest objects a
   * string of one character per field.
   */
  of(present: number | string): RecordShape {
    let shape = this.byPresent.get(present);
    if (shape === undefined) {
      const fields = this.plan.fields.filter(
        (field, i) =>
          !field.optional ||
          (typeof present === 'number'
            ? Math.floor(present / 2 ** i) % 2 === 1
            : present.charCodeAt(i) === 0x31),
      );
      shape = newShape(fields);
      this.byPresent.set(present, shape);
    }
    return shape;
  }
}

/** Schemas are few and long-lived, so their structures are kept for as long as their plans are. */
const shapesByPlan = new WeakMap<Plan, PlanShapes>();
let shapesMade = 0;

/** The structures of an object plan. */
export function shapesOf(plan: Plan): PlanShapes {
  let shapes = shapesByPlan.get(plan);
  if (shapes === undefined) {
    shapes = new PlanShapes(plan);
    shapesByPlan.set(plan, shapes);
  }
  return shapes;
}

function newShape(fields: readonly FieldPlan[]): RecordShape {
  const out = new MsgpackEmitter();
  out.begin();
  out.arrayHeader(fields.length);
  for (const field of fields) out.key(field.key);
  return new RecordShape(shapesMade++, out.finish().slice());
}
