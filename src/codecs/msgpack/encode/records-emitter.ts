/**
 * MessagePack with msgpackr's record extension (`msgpackRecords: true` with a schema): objects are
 * records. The first object of a structure (record-shapes.ts) in a value is its definition,
 * fixext 1 of type 0x72 ('r') with a one-byte id in 0x40–0x7f, followed by the array of its keys
 * and then its values; every later object of that structure in the same value is the id byte and
 * its values. Ids are given per value (each value stands alone, as msgpackr writes with
 * `maxSharedStructures: 0`), in msgpackr's order: 0x40 up, and past 64 structures the oldest id
 * is defined again.
 *
 * Since 0x40–0x7f name records, the positive integers 64–127 are written as uint 8, as msgpackr
 * does in this mode; every other primitive is plain MessagePack.
 */
import { grown } from '../../core/grow.js';
import type { Plan } from '../../keyed/plan.js';
import type { ObjectRecords } from '../../keyed/wire.js';
import { MsgpackEmitter } from './emitter.js';
import { type RecordShape, shapesOf } from './record-shapes.js';

const firstId = 0x40;
const idCount = 64;

export class RecordsEmitter extends MsgpackEmitter implements ObjectRecords {
  readonly records: ObjectRecords = this;
  /** The current value's number: a structure whose stamp is it has the id in `ids`. */
  private stamp = 0;
  /** By RecordShape.index: the value the structure was last defined in, and its id there. */
  private stamps = new Uint32Array(64);
  private ids = new Uint8Array(64);
  /** By id - 0x40: the schema structure that holds it in this value, -1 for none. */
  private readonly holders = new Int32Array(idCount);
  /**
   * The structures of plain objects the schema does not fix (string-keyed maps, json), by their
   * keys (as JSON text) in this value, and by id - 0x40 the keys that hold each id.
   */
  private readonly keysIds = new Map<string, number>();
  private readonly keysHolders: (string | undefined)[] = new Array(idCount).fill(undefined);
  private nextSlot = 0;

  override begin(): void {
    super.begin();
    if (this.stamp === 0xffff_ffff) {
      this.stamps.fill(0);
      this.stamp = 0;
    }
    this.stamp++;
    this.holders.fill(-1);
    if (this.keysIds.size > 0) {
      this.keysIds.clear();
      this.keysHolders.fill(undefined);
    }
    this.nextSlot = 0;
  }

  override int(value: number): void {
    if (value >= firstId && value < 0x80) this.byte2(0xcc, value);
    else super.int(value);
  }

  /** An object's record head: its id, or its structure's definition the first time in this value. */
  record(shape: RecordShape): void {
    const index = shape.index;
    if (index < this.stamps.length && this.stamps[index] === this.stamp) {
      this.byte(this.ids[index] as number);
      return;
    }
    if (index >= this.stamps.length) {
      const size = Math.max(index + 1, this.stamps.length * 2);
      this.stamps = grown(this.stamps, size);
      this.ids = grown(this.ids, size);
    }
    const id = this.takeId();
    this.holders[id - firstId] = index;
    this.stamps[index] = this.stamp;
    this.ids[index] = id;
    this.definitionHead(id);
    this.raw(shape.keys);
  }

  objectRecord(plan: Plan, present: number | string): void {
    const shapes = shapesOf(plan);
    this.record(shapes.hasOptional ? shapes.of(present) : shapes.all);
  }

  keysRecord(keys: readonly string[]): void {
    const text = JSON.stringify(keys);
    const known = this.keysIds.get(text);
    if (known !== undefined) {
      this.byte(known);
      return;
    }
    const id = this.takeId();
    this.keysHolders[id - firstId] = text;
    this.keysIds.set(text, id);
    this.definitionHead(id);
    this.arrayHeader(keys.length);
    for (const key of keys) this.string(key);
  }

  /** The next id in msgpackr's order; past 64 structures, the one that held it loses it. */
  private takeId(): number {
    const slot = this.nextSlot;
    this.nextSlot = (slot + 1) % idCount;
    const holder = this.holders[slot] as number;
    if (holder >= 0) {
      this.stamps[holder] = 0;
      this.holders[slot] = -1;
    }
    const keys = this.keysHolders[slot];
    if (keys !== undefined) {
      this.keysIds.delete(keys);
      this.keysHolders[slot] = undefined;
    }
    return firstId + slot;
  }

  private definitionHead(id: number): void {
    this.ensure(3);
    this.buf[this.pos] = 0xd4;
    this.buf[this.pos + 1] = 0x72;
    this.buf[this.pos + 2] = id;
    this.pos += 3;
  }
}
