/**
 * Whether an Avro reader schema reads every datum a writer schema can write: the specification's
 * "Schema Resolution" applied to schemas rather than to one datum, as Avro Java (which Confluent's
 * registry runs) and Python apply it, with Confluent's error types and Avro Java's paths. The rules,
 * and why wirekit refuses a decimal's change of scale where those accept it: docs/compatibility.md.
 */
import type {
  AvroEnum,
  AvroField,
  AvroFixed,
  AvroRecord,
  AvroType,
  AvroUnion,
} from '../../../codecs/avro/avro-schema.js';
import { shortName } from '../../../codecs/avro/avro-schema.js';
import { CheckBudget, withinBudget } from './check-budget.js';
import { distinct, type Finding } from './issues.js';

/**
 * Why `reader` cannot read what `writer` writes; empty when it can. `nodes` is the two schemas'
 * size (their node counts), which bounds the check's work (check-budget.ts).
 */
export function avroReadFindings(reader: AvroType, writer: AvroType, nodes: number): Finding[] {
  const budget = new CheckBudget(nodes);
  return distinct(withinBudget(() => new AvroChecker(budget).check(reader, writer))).map((finding) =>
    finding.path === '' ? { ...finding, path: '/' } : finding,
  );
}

/** What each type promotes to; a Map, like every lookup of the rules, so a name is never a key. */
const promotions: ReadonlyMap<string, readonly string[]> = new Map([
  ['int', ['long', 'float', 'double']],
  ['long', ['float', 'double']],
  ['float', ['double']],
  ['string', ['bytes']],
  ['bytes', ['string']],
]);

type Named = AvroRecord | AvroEnum | AvroFixed;

function isNamed(type: AvroType): type is Named {
  return type.type === 'record' || type.type === 'enum' || type.type === 'fixed';
}

/** Avro Java's rule: the same unqualified name, or a reader alias that is the writer's full name. */
function namesMatch(reader: Named, writer: Named): boolean {
  return shortName(reader.name) === shortName(writer.name) || reader.aliases.includes(writer.name);
}

/** How a type is called in a message: Avro Java's upper-case type names, and a named type's name. */
function typeName(type: AvroType): string {
  return isNamed(type) ? `${type.type.toUpperCase()} ${type.name}` : type.type.toUpperCase();
}

function at(path: string): string {
  return path === '' ? '/' : path;
}

/**
 * One check of a reader against a writer. Findings are relative to the pair they were found in
 * (`/fields/1/type`), so a pair checked once (memoised) answers for every place it is met. Every
 * lookup is by Map (fields by name, union branches by what they read), so a pair costs its size.
 */
class AvroChecker {
  /** Findings per reader and writer pair; `inProgress` while the pair is being checked. */
  private readonly memo = new Map<AvroType, Map<AvroType, Finding[] | typeof inProgress>>();
  /** Reader union branches by what they can read, and each branch's place, built once per union. */
  private readonly branchIndex = new Map<AvroUnion, BranchIndex>();
  /** Writer record fields by name, built once per record. */
  private readonly fieldIndex = new Map<AvroRecord, Map<string, AvroField>>();

  constructor(private readonly budget: CheckBudget) {}

  check(reader: AvroType, writer: AvroType): Finding[] {
    this.budget.spend();
    let byWriter = this.memo.get(reader);
    if (byWriter === undefined) {
      byWriter = new Map();
      this.memo.set(reader, byWriter);
    }
    const known = byWriter.get(writer);
    if (known === inProgress) return [];
    if (known !== undefined) return known;
    byWriter.set(writer, inProgress);
    const findings = this.compute(reader, writer);
    byWriter.set(writer, findings);
    return findings;
  }

  /** `findings` with `prefix` put in front of their paths; each one carried up is a step. */
  private under(prefix: string, findings: readonly Finding[], into: Finding[]): void {
    this.budget.spend(findings.length);
    for (const finding of findings) into.push({ ...finding, path: prefix + finding.path });
  }

  private compute(reader: AvroType, writer: AvroType): Finding[] {
    if (writer.type === 'union') {
      const findings: Finding[] = [];
      writer.branches.forEach((branch, i) => {
        if (reader.type === 'union') {
          // Every branch the writer may pick needs a reader branch that reads it.
          if (!this.readsWith(reader, branch)) findings.push(missingBranch(`/${i}`, branch));
        } else this.under(`/${i}`, this.check(reader, branch), findings);
      });
      return findings;
    }
    if (reader.type === 'union') return this.readsWith(reader, writer) ? [] : [missingBranch('', writer)];
    if (reader.type !== writer.type) {
      return promotions.get(writer.type)?.includes(reader.type) ? [] : [typeMismatch(reader, writer)];
    }
    const findings: Finding[] = [];
    if (isNamed(reader)) this.budget.spend(reader.aliases.length);
    switch (reader.type) {
      case 'record':
        findings.push(...nameFindings(reader, writer as Named));
        this.fields(reader, writer as AvroRecord, findings);
        return findings;
      case 'enum':
        return [...nameFindings(reader, writer as Named), ...symbols(reader, writer as AvroEnum)];
      case 'fixed': {
        const fixed = writer as AvroFixed;
        findings.push(...nameFindings(reader, fixed));
        if (reader.size !== fixed.size) findings.push(fixedSize(reader, fixed));
        return [...findings, ...decimals(reader, fixed)];
      }
      case 'array':
        this.under('/items', this.check(reader.items, (writer as typeof reader).items), findings);
        return findings;
      case 'map':
        this.under('/values', this.check(reader.values, (writer as typeof reader).values), findings);
        return findings;
      case 'bytes':
        return decimals(reader, writer as typeof reader);
      default:
        return [];
    }
  }

  private fields(reader: AvroRecord, writer: AvroRecord, findings: Finding[]): void {
    const byName = this.writerFields(writer);
    reader.fields.forEach((field, i) => {
      this.budget.spend(1 + field.aliases.length);
      let source = byName.get(field.name);
      for (let a = 0; source === undefined && a < field.aliases.length; a++) {
        source = byName.get(field.aliases[a] as string);
      }
      if (source !== undefined) {
        this.under(`/fields/${i}/type`, this.check(field.type, source.type), findings);
      } else if (field.hasDefault !== true) {
        findings.push({
          errorType: 'READER_FIELD_MISSING_DEFAULT_VALUE',
          path: `/fields/${i}`,
          additionalInfo: field.name,
          describe: ({ reader: r, writer: w }, path) =>
            `The field '${field.name}' at path '${path}' in the ${r} schema has no default value and is missing in the ${w} schema`,
        });
      }
    });
  }

  private writerFields(writer: AvroRecord): Map<string, AvroField> {
    let byName = this.fieldIndex.get(writer);
    if (byName === undefined) {
      this.budget.spend(writer.fields.length);
      byName = new Map();
      // Field names are unique in a record (the parser refuses a repeat).
      for (const field of writer.fields) byName.set(field.name, field);
      this.fieldIndex.set(writer, byName);
    }
    return byName;
  }

  /** Whether some branch of the reader union reads `writer` (not a union). */
  private readsWith(reader: AvroUnion, writer: AvroType): boolean {
    return this.candidates(reader, writer).some((branch) => this.check(branch, writer).length === 0);
  }

  /**
   * The reader's branches that could read `writer`, in the reader's order: of its type or a type it
   * promotes to, and for a named type, of its name or with an alias for it. Indexed once per union,
   * so a union of thousands of branches is not searched once per writer branch.
   */
  private candidates(reader: AvroUnion, writer: AvroType): AvroType[] {
    const index = this.indexOf(reader);
    const keys = isNamed(writer)
      ? [`${writer.type} ${shortName(writer.name)}`, `${writer.type} =${writer.name}`]
      : [writer.type, ...(promotions.get(writer.type) ?? [])];
    const found = new Set<AvroType>();
    for (const key of keys) for (const branch of index.byKey.get(key) ?? []) found.add(branch);
    this.budget.spend(found.size);
    return [...found].sort((a, b) => (index.place.get(a) ?? 0) - (index.place.get(b) ?? 0));
  }

  private indexOf(reader: AvroUnion): BranchIndex {
    let index = this.branchIndex.get(reader);
    if (index === undefined) {
      index = { byKey: new Map(), place: new Map() };
      for (const [place, branch] of reader.branches.entries()) {
        index.place.set(branch, place);
        const keys = isNamed(branch)
          ? [
              `${branch.type} ${shortName(branch.name)}`,
              ...branch.aliases.map((alias) => `${branch.type} =${alias}`),
            ]
          : [branch.type];
        this.budget.spend(keys.length);
        for (const key of new Set(keys)) {
          const list = index.byKey.get(key);
          if (list === undefined) index.byKey.set(key, [branch]);
          else list.push(branch);
        }
      }
      this.branchIndex.set(reader, index);
    }
    return index;
  }
}

interface BranchIndex {
  /** Branches by the key of what they read (`record Name`, `record =full.Alias`, `int`), in the union's order. */
  readonly byKey: Map<string, AvroType[]>;
  readonly place: Map<AvroType, number>;
}

function nameFindings(reader: Named, writer: Named): Finding[] {
  if (namesMatch(reader, writer)) return [];
  return [
    {
      errorType: 'NAME_MISMATCH',
      path: '/name',
      additionalInfo: `expected: ${writer.name}`,
      describe: ({ reader: r, writer: w }, path) =>
        `The name of the ${reader.type} at path '${path}' in the ${r} schema is ${reader.name}; ` +
        `the ${w} schema calls it ${writer.name}, and no alias of the ${r} one says so`,
    },
  ];
}

const inProgress = Symbol('in progress');

function symbols(reader: AvroEnum, writer: AvroEnum): Finding[] {
  const known = new Set(reader.symbols);
  const missing = writer.symbols.filter((symbol) => !known.has(symbol));
  if (missing.length === 0 || (reader.default !== undefined && known.has(reader.default))) return [];
  const list = `[${missing.join(', ')}]`;
  return [
    {
      errorType: 'MISSING_ENUM_SYMBOLS',
      path: '/symbols',
      additionalInfo: list,
      describe: ({ reader: r, writer: w }, path) =>
        `The ${r} schema is missing enum symbols '${list}' at path '${path}' in the ${w} schema, and has no enum default`,
    },
  ];
}

function fixedSize(reader: AvroFixed, writer: AvroFixed): Finding {
  return {
    errorType: 'FIXED_SIZE_MISMATCH',
    path: '/size',
    additionalInfo: `expected: ${writer.size}, found: ${reader.size}`,
    describe: ({ reader: r, writer: w }, path) =>
      `The size of the FIXED type at path '${path}' in the ${r} schema (${reader.size}) does not match the ${w} schema (${writer.size})`,
  };
}

function typeMismatch(reader: AvroType, writer: AvroType, detail?: string): Finding {
  return {
    errorType: 'TYPE_MISMATCH',
    path: '',
    additionalInfo:
      detail ?? `reader type: ${typeName(reader)} not compatible with writer type: ${typeName(writer)}`,
    describe: ({ reader: r, writer: w }, path) =>
      `The type (path '${at(path)}') of a field in the ${r} schema does not match with the ${w} schema`,
  };
}

function missingBranch(where: string, writer: AvroType): Finding {
  return {
    errorType: 'MISSING_UNION_BRANCH',
    path: where,
    additionalInfo: `reader union lacking writer type: ${typeName(writer)}`,
    describe: ({ reader: r, writer: w }, path) =>
      `The ${r} schema is missing a type inside a union field at path '${at(path)}' in the ${w} schema`,
  };
}

type Decimal = { readonly logicalType?: string; readonly precision?: number; readonly scale?: number };

/** The one logical type rule: a decimal reader keeps the writer's scale and at least its precision. */
function decimals(reader: AvroType & Decimal, writer: AvroType & Decimal): Finding[] {
  if (reader.logicalType !== 'decimal' || writer.logicalType !== 'decimal') return [];
  const [rp, rs, wp, ws] = [
    reader.precision ?? 0,
    reader.scale ?? 0,
    writer.precision ?? 0,
    writer.scale ?? 0,
  ];
  if (rs === ws && rp >= wp) return [];
  return [
    typeMismatch(
      reader,
      writer,
      `reader type: decimal(${rp}, ${rs}) not compatible with writer type: decimal(${wp}, ${ws})` +
        (rs === ws ? ' (precision narrowed)' : ' (scale changed: every value would be rescaled)'),
    ),
  ];
}
