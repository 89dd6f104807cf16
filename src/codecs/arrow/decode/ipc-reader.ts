/**
 * The message sequence of an IPC stream or file: the schema first (checked against the codec's,
 * or without a codec schema planned from its own types), then dictionary batches and record
 * batches in any order. The reader keeps what later batches need (dictionaries, the schema) and
 * turns each record batch into checked Data, then into rows. Rows and decoded dictionaries are
 * charged to the allocation budget (cost.ts) before they are made; tables and batches are not,
 * since their columns are views of the input.
 */
import {
  Schema as ArrowSchema,
  type Data,
  type Dictionary,
  type Field,
  RecordBatch,
  Struct,
  Vector,
} from 'apache-arrow';
import { defaultMaxDecompressionRatio } from '../../../util/decompression-ratio.js';
import { equalBytes } from '../../../util/node-runtime.js';
import { AllocationBudget } from '../../core/budget.js';
import { malformed, mismatch, tooDeep, tooManyElements, truncated } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import type { CompiledRows } from '../compiled.js';
import { newData } from '../data.js';
import type { RootPlan } from '../plan.js';
import { BodyBuffers, type InflateBudget } from './body.js';
import { misplacedNull, type ReadContext, readColumn, readStrings, type StructRead } from './columns.js';
import { rowsCost, valuesCost } from './cost.js';
import { faultError, nullMessage, ValueFault } from './fault.js';
import { dictionariesOf, type SchemaTable } from './fields.js';
import { BatchLoader, type ElementBudget } from './load.js';
import { type DictionaryUses, matchSchema } from './match.js';
import { type BatchHeader, type IpcMessage, messageBodyLength, parseMessage } from './messages.js';
import { type Projection, projectData } from './project.js';
import { planRows, storedLeaf } from './stored.js';

const continuation = 0xffffffff;

export type Accepted =
  | { readonly kind: 'batch'; readonly data: Data<Struct> }
  | { readonly kind: 'schema' | 'dictionary' | 'eos' };

/** What precedes a message's metadata: its length (0 for the end-of-stream marker). */
export interface Prefix {
  /** 8 bytes (the continuation marker, then the length), or 4 in pre-0.15 framing (the length). */
  readonly prefix: 4 | 8;
  readonly metadataLength: number;
}

/**
 * The prefix at `pos`, or undefined when the bytes up to `end` do not yet tell. Since Arrow 0.15
 * a message starts with 0xFFFFFFFF and then its metadata length; before, with the length alone
 * (and a stream ended with a 4-byte 0). Readers tell the two apart by the first word, as Arrow's
 * own do, so streams and files of either framing are read.
 */
export function readPrefix(bytes: Uint8Array, pos: number, end: number, base: number): Prefix | undefined {
  if (end - pos < 4) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset + pos, end - pos);
  const first = view.getUint32(0, true);
  if (first !== continuation) {
    if (first > 0x7fffffff)
      throw malformed(base + pos, 'a message starts with neither 0xFFFFFFFF nor a metadata length', 'arrow');
    return { prefix: 4, metadataLength: first };
  }
  if (end - pos < 8) return undefined;
  const metadataLength = view.getInt32(4, true);
  if (metadataLength < 0) throw malformed(base + pos + 4, 'a metadata length is negative', 'arrow');
  return { prefix: 8, metadataLength };
}

/** A measured message: its prefix, and its total size (prefix + metadata + body). */
export interface MessageSize extends Prefix {
  readonly total: number;
}

/**
 * Measures the message at `pos`: undefined when the bytes up to `end` do not yet tell, else its
 * prefix and total (the prefix alone for the end-of-stream marker). Only the prefix and the
 * metadata are read.
 */
export function measureMessage(
  bytes: Uint8Array,
  pos: number,
  end: number,
  base: number,
): MessageSize | undefined {
  const head = readPrefix(bytes, pos, end, base);
  if (head === undefined) return undefined;
  const { prefix, metadataLength } = head;
  if (metadataLength === 0) return { prefix, metadataLength, total: prefix };
  if (end - pos < prefix + metadataLength) return undefined;
  const metadata = bytes.subarray(pos + prefix, pos + prefix + metadataLength);
  const bodyLength = messageBodyLength(metadata, base + pos + prefix);
  return { prefix, metadataLength, total: prefix + metadataLength + bodyLength };
}

/** An incoming schema, checked against the codec's, with what batches need of it. */
interface KnownSchema {
  /** The incoming fields, which a batch's buffers are laid out by. */
  readonly fields: readonly Field[];
  /** The codec's columns out of the incoming ones, where they differ (project.ts). */
  readonly projection: Projection | undefined;
  /** Dictionaries of the fields left out: loaded for their fields' checks, never decoded. */
  readonly ignored: ReadonlyMap<number, Dictionary>;
  /** With a codec schema: what each dictionary decodes to. */
  readonly uses: DictionaryUses;
  /** The writer's byte order, which every batch body is in. */
  readonly bigEndian: boolean;
  /** Without one: each dictionary's type, and the plan of the rows. */
  readonly dictionaryTypes: ReadonlyMap<number, Dictionary>;
  readonly rowsPlan: StructRead | undefined;
  /** Every column is stored as the codec writes it, so the generated row reader may read it. */
  readonly exact: boolean;
  readonly arrowSchema: ArrowSchema;
  /** The rows' type as the batch's buffers hold them (every incoming field). */
  readonly structType: Struct;
}

/**
 * The last schema message a codec read, by its bytes. A service receives the same schema message
 * with every request; parsing and checking it once saves most of the cost of a small message.
 */
export interface SchemaMemo {
  last?: { readonly bytes: Uint8Array; readonly schema: KnownSchema };
}

export class IpcReader {
  private known: KnownSchema | undefined;
  private readonly vectors = new Map<number, Vector>();
  private readonly members = new Map<number, unknown[]>();
  /** Array items and map entries of the value being decoded (rows count as items of the array). */
  readonly budget: ElementBudget = { used: 0 };
  /** Dictionary entries held: they live as long as the input, so they count across batches. */
  private readonly dictionaryBudget: ElementBudget = { used: 0 };
  /**
   * What the rows and dictionaries decoded so far cost the heap: across the input, or per record
   * batch for streams (with the dictionaries held counted in every batch).
   */
  readonly allocation: AllocationBudget;
  /** What each dictionary's decoded values cost, by id, and all of them together. */
  private readonly dictionaryCosts = new Map<number, number>();
  private dictionaryCost = 0;
  /**
   * Bytes inflated from compressed bodies: across the input, or per record batch for streams
   * (with what the dictionaries held inflated to counted in every batch), by id and together.
   */
  private readonly inflated: InflateBudget = { used: 0 };
  private readonly dictionaryInflation = new Map<number, number>();
  private dictionaryInflated = 0;
  private readonly maxDecompressionRatio: number;
  /** Rows read before the current batch, for the row an error names. */
  private rowsBefore = 0;

  constructor(
    /** The codec's schema, or undefined to read rows by the input's own schema. */
    private readonly root: RootPlan | undefined,
    private readonly limits: DecodeLimits,
    private readonly options: {
      /** Count elements per record batch (streams) rather than across the whole input. */
      readonly perBatch?: boolean;
      readonly memo?: SchemaMemo;
      /** The root struct's generated row reader (src/codecs/arrow/compiled.ts), if any. */
      readonly compiledRows?: CompiledRows | undefined;
      /** How many times its compressed body a message may inflate to (body.ts). */
      readonly maxDecompressionRatio?: number;
      /** Refuse a field the codec's schema does not name, rather than leave it out (unknownKeys). */
      readonly rejectUnknown?: boolean;
    } = {},
  ) {
    if (root !== undefined && root.maxDepth > limits.maxDepth) throw tooDeep(0, limits);
    this.allocation = new AllocationBudget(limits.maxAllocatedBytes);
    this.maxDecompressionRatio = options.maxDecompressionRatio ?? defaultMaxDecompressionRatio;
  }

  get schema(): ArrowSchema | undefined {
    return this.known?.arrowSchema;
  }

  /**
   * Checks a schema (from a schema message or a file footer) against the codec's. The first one
   * is the one used; a file may repeat its footer's schema as a message, and both must match.
   */
  useSchema({ fields, metadata, bigEndian }: SchemaTable, offset: number): KnownSchema {
    const root = this.root;
    const match =
      root === undefined
        ? undefined
        : matchSchema(root, fields, offset, { rejectUnknown: this.options.rejectUnknown === true });
    // What the batches are read and handed out as: the codec's columns only, where there were more.
    const read = match?.projection?.k === 'struct' ? match.projection.type.children : fields;
    const known: KnownSchema = {
      fields,
      projection: match?.projection,
      ignored: match?.ignored ?? new Map(),
      uses: match?.dictionaries ?? new Map(),
      bigEndian,
      dictionaryTypes: match === undefined ? dictionariesOf(fields) : new Map(),
      rowsPlan: match === undefined ? planRows(fields, offset) : undefined,
      exact: match?.exact ?? false,
      arrowSchema: new ArrowSchema([...read], metadata),
      structType: new Struct([...fields]),
    };
    this.known ??= known;
    return known;
  }

  /**
   * Reads the complete message `frame` (prefix included) found at `offset` of the input; for a
   * record batch, the result holds its checked Data.
   */
  accept(frame: Uint8Array, offset: number, { prefix, metadataLength }: Prefix): Accepted {
    if (metadataLength === 0) return { kind: 'eos' };
    const head = prefix + metadataLength;
    const metadata = frame.subarray(prefix, head);
    const last = this.options.memo?.last;
    if (last !== undefined && frame.length === head && equalBytes(last.bytes, metadata)) {
      this.known ??= last.schema;
      return { kind: 'schema' };
    }
    const message = parseMessage(metadata, offset + prefix, this.limits);
    if (head + message.bodyLength !== frame.length)
      throw truncated(offset + frame.length, 'an Arrow message body');
    const body = frame.subarray(head);
    const bodyOffset = offset + head;
    switch (message.body.kind) {
      case 'schema': {
        // A file may repeat its footer's schema as its first message: each must be the codec's.
        const schema = this.useSchema(message.body, offset);
        if (this.options.memo !== undefined) this.options.memo.last = { bytes: metadata.slice(), schema };
        return { kind: 'schema' };
      }
      case 'dictionary':
        this.loadDictionary(message, body, bodyOffset, offset);
        return { kind: 'dictionary' };
      case 'batch':
        return { kind: 'batch', data: this.loadBatch(message, body, bodyOffset, offset) };
    }
  }

  private requireSchema(offset: number): KnownSchema {
    if (this.known === undefined) throw malformed(offset, 'a batch comes before the schema', 'arrow');
    return this.known;
  }

  private loadDictionary(message: IpcMessage, body: Uint8Array, bodyOffset: number, offset: number): void {
    const known = this.requireSchema(offset);
    if (message.body.kind !== 'dictionary') return;
    const { id, isDelta, batch } = message.body;
    const use = known.uses.get(id);
    const ignored = use === undefined ? known.ignored.get(id) : undefined;
    const type = use?.type ?? ignored ?? known.dictionaryTypes.get(id);
    if (type === undefined) throw malformed(offset, `dictionary ${id} belongs to no field`, 'arrow');
    if (!isDelta) this.dictionaryBudget.used -= this.members.get(id)?.length ?? 0;
    this.dictionaryBudget.used += batch.length;
    if (this.dictionaryBudget.used > this.limits.maxElements) throw tooManyElements(offset, this.limits);
    const inflatedBefore = this.inflated.used;
    const buffers = this.bodyBuffers(batch, body, bodyOffset, known);
    const loader = new BatchLoader(buffers, message.version, this.vectors, this.limits, { used: 0 });
    const [data] = loader.loadColumns([type.dictionary]) as [Data];
    // As with costs: a replaced dictionary's inflated bytes are let go, a delta's add up.
    const inflatedNow = this.inflated.used - inflatedBefore;
    const inflatedHeld = isDelta ? (this.dictionaryInflation.get(id) ?? 0) : 0;
    this.dictionaryInflated += inflatedNow + inflatedHeld - (this.dictionaryInflation.get(id) ?? 0);
    this.dictionaryInflation.set(id, inflatedHeld + inflatedNow);
    // A replaced dictionary's values are let go; a delta's add to those held.
    const replaced = isDelta ? 0 : (this.dictionaryCosts.get(id) ?? 0);
    const added = valuesCost(data, 0, batch.length);
    this.dictionaryCosts.set(id, (this.dictionaryCosts.get(id) ?? 0) - replaced + added);
    this.dictionaryCost += added - replaced;
    this.allocation.used -= replaced;
    this.allocation.charge(added, offset);
    let values: unknown[];
    if (ignored !== undefined) {
      // A field left out: its indices are checked against the entries, which are never read.
      values = [];
    } else if (use === undefined) {
      const ctx = { limits: this.limits, budget: { used: 0 }, dictionaries: this.members, offset };
      try {
        values = readColumn(storedLeaf(2), data, 0, batch.length, ctx);
      } catch (error) {
        if (!(error instanceof ValueFault)) throw error;
        throw mismatch(offset, `dictionary ${id}, entry ${error.index}: ${error.message}`, 'arrow');
      }
    } else {
      const strings = readStrings(data, batch.length, bodyOffset);
      // Members the codec does not know are kept out (undefined): refused only if a row uses them,
      // since writers may keep unused categories in a dictionary.
      const plan = use.kind === 'enum' ? use.plan : undefined;
      values =
        plan === undefined ? strings : strings.map((value) => (plan.indexOf.has(value) ? value : undefined));
    }
    const previous = isDelta ? this.vectors.get(id) : undefined;
    this.vectors.set(
      id,
      previous === undefined
        ? new Vector([data.slice(0, batch.length)])
        : previous.concat(new Vector([data.slice(0, batch.length)])),
    );
    this.members.set(id, isDelta ? [...(this.members.get(id) ?? []), ...values] : values);
  }

  private loadBatch(message: IpcMessage, body: Uint8Array, bodyOffset: number, offset: number): Data<Struct> {
    const known = this.requireSchema(offset);
    const { fields, structType, projection } = known;
    if (message.body.kind !== 'batch') throw malformed(offset, 'not a record batch', 'arrow');
    const { batch } = message.body;
    const rows = batch.length;
    if (this.options.perBatch) {
      this.budget.used = 0;
      this.allocation.used = this.dictionaryCost;
      this.inflated.used = this.dictionaryInflated;
    }
    this.budget.used += rows;
    if (this.budget.used > this.limits.maxElements) throw tooManyElements(offset, this.limits);
    const buffers = this.bodyBuffers(batch, body, bodyOffset, known);
    const loader = new BatchLoader(buffers, message.version, this.vectors, this.limits, this.budget);
    const columns = loader.loadColumns(fields.map((field) => field.type));
    const children = columns.map((column) => (column.length === rows ? column : column.slice(0, rows)));
    const all = newData(structType, rows, { nullCount: 0 }, {}, children) as Data<Struct>;
    return projection === undefined ? all : (projectData(projection, all) as Data<Struct>);
  }

  private bodyBuffers(batch: BatchHeader, body: Uint8Array, bodyOffset: number, known: KnownSchema) {
    return new BodyBuffers(batch, body, bodyOffset, this.limits, {
      bigEndian: known.bigEndian,
      inflated: this.inflated,
      maxDecompressionRatio: this.maxDecompressionRatio,
    });
  }

  /** The rows of a batch loaded by `accept`. */
  rows(data: Data<Struct>, offset: number): unknown[] {
    return this.appendRows(data, offset, []);
  }

  /** Appends the rows of a batch loaded by `accept` to `out`; returns `out`. */
  appendRows(data: Data<Struct>, offset: number, out: unknown[]): unknown[] {
    this.allocation.charge(rowsCost(data, this.root?.rows !== 'value'), offset);
    const ctx = { limits: this.limits, budget: this.budget, dictionaries: this.members, offset };
    const first = this.rowsBefore;
    this.rowsBefore += data.length;
    try {
      const compiled = this.options.compiledRows;
      if (compiled !== undefined && this.root?.rows === 'object' && this.known?.exact) {
        compiled(data, 0, data.length, ctx, out, out.length);
        return out;
      }
      const rows = this.readRows(data, ctx);
      if (out.length === 0) return rows;
      for (const row of rows) out.push(row);
      return out;
    } catch (error) {
      if (error instanceof ValueFault) throw faultError(error, first + error.index, offset);
      throw error;
    }
  }

  private readRows(data: Data<Struct>, ctx: ReadContext): unknown[] {
    const root = this.root;
    if (root === undefined)
      return readColumn((this.known as KnownSchema).rowsPlan as StructRead, data, 0, data.length, ctx);
    if (root.rows === 'object') return readColumn(root.struct, data, 0, data.length, ctx);
    const column = root.struct.columns[0] as RootPlan['struct']['columns'][number];
    const values = readColumn(column.plan, data.children[0] as Data, 0, data.length, ctx);
    const at = values.indexOf(misplacedNull);
    if (at >= 0) throw new ValueFault(at, nullMessage);
    return values;
  }

  batch(data: Data<Struct>): RecordBatch {
    return new RecordBatch((this.known as KnownSchema).arrowSchema, data);
  }
}
