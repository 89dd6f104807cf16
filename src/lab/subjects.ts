/**
 * What the lab times: each wirekit codec, native JSON, and the libraries beneath wirekit used
 * directly (msgpackr, cbor-x), all on the same values. Every subject goes bytes to bytes, so JSON
 * pays for its UTF-8 step like the binary formats do.
 */
import { createRequire } from 'node:module';
import { createFlatBuffersCodec } from '../codecs/flatbuffers/index.js';
import { createCodec, type FormatName } from '../codecs/index.js';
import { type ObjectSchema, type Schema, t } from '../schema/index.js';
import { furyFor } from './peers/fury.js';
import { type OptionalPeer, optionalPeers, type PeerLocation } from './peers/optional.js';

export interface Subject {
  /** Short label for tables: "msgpack", "JSON (native)", "msgpackr". */
  readonly label: string;
  /** The wire format ('fury' is Fury's own), and who implements it: wirekit, or a library used directly. */
  readonly format: FormatName | 'fury';
  readonly implementation: 'wirekit' | 'native' | 'msgpackr' | 'cbor-x' | '@furyjs/fury';
  encode(value: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
}

export const subjectNames = [
  'json',
  'msgpack',
  'cbor',
  'protobuf',
  'avro',
  'flatbuffers',
  'arrow',
  'flatbuffers-view',
  'json-native',
  'msgpackr',
  'cbor-x',
  'fury',
] as const;
/**
 * What `wirekit bench` runs unless told: every format and the libraries beneath, all of them
 * dependencies of wirekit-ts. The optional peers (Fury, with its own wire format) run when asked
 * for with --formats, and only where the user installed them.
 */
export const defaultSubjects: readonly SubjectName[] = subjectNames.filter((name) => !isOptionalPeer(name));
export type SubjectName = (typeof subjectNames)[number];

function isOptionalPeer(name: string): name is OptionalPeer {
  return Object.hasOwn(optionalPeers, name);
}

const require = createRequire(import.meta.url);

/**
 * The lab measures codecs on data the user chose to measure, up to 10 million rows (--large):
 * the default decode limits, sized for untrusted input (64 MiB, 16 M elements, 256 MiB of heap),
 * would refuse it.
 */
const benchLimits = { maxInputBytes: 2 ** 32, maxElements: 2 ** 32, maxAllocatedBytes: 2 ** 40 };

/**
 * The subject for one item schema. `batch` says whether a value is an array of items (measured
 * whole) or a single item (as a cache sees it). Arrow always takes rows, so an item is one row.
 * `peers` says where optional peers are installed (see ../peers/optional.ts).
 */
export function createSubject(
  name: SubjectName,
  item: ObjectSchema,
  batch: boolean,
  peers: PeerLocation = {},
): Subject {
  const schema: Schema = batch ? t.array(item) : item;
  switch (name) {
    case 'json-native': {
      const encoder = new TextEncoder();
      const decoder = new TextDecoder();
      return {
        label: 'JSON (native)',
        format: 'json',
        implementation: 'native',
        encode: (value) => encoder.encode(JSON.stringify(value)),
        decode: (bytes) => JSON.parse(decoder.decode(bytes)),
      };
    }
    case 'msgpackr': {
      const { Packr } = require('msgpackr') as typeof import('msgpackr');
      const packr = new Packr({ useRecords: false });
      return {
        label: 'msgpackr',
        format: 'msgpack',
        implementation: 'msgpackr',
        encode: (v) => packr.pack(v),
        decode: (b) => packr.unpack(b),
      };
    }
    case 'cbor-x': {
      const { Encoder } = require('cbor-x') as typeof import('cbor-x');
      const cbor = new Encoder({ useRecords: false });
      return {
        label: 'cbor-x',
        format: 'cbor',
        implementation: 'cbor-x',
        encode: (v) => cbor.encode(v),
        decode: (b) => cbor.decode(b),
      };
    }
    case 'fury': {
      const fury = furyFor(schema, peers);
      return {
        label: '@furyjs/fury',
        format: 'fury',
        implementation: '@furyjs/fury',
        encode: fury.encode,
        decode: fury.decode,
      };
    }
    case 'flatbuffers-view': {
      // Zero-copy views read each field from the buffer on access; the lab's decode touches every
      // field, so this row shows what laziness costs or saves when everything is read after all.
      const codec = createFlatBuffersCodec({ schema, limits: benchLimits });
      return {
        label: 'flatbuffers (view)',
        format: 'flatbuffers',
        implementation: 'wirekit',
        encode: (v) => codec.encode(v),
        decode: (b) => codec.view(b),
      };
    }
    case 'arrow': {
      const codec = createCodec('arrow', { schema: item, limits: benchLimits });
      return {
        label: 'arrow',
        format: 'arrow',
        implementation: 'wirekit',
        encode: batch ? (value) => codec.encode(value) : (value) => codec.encode([value]),
        decode: batch ? (bytes) => codec.decode(bytes) : (bytes) => (codec.decode(bytes) as unknown[])[0],
      };
    }
    default: {
      const codec = createCodec(name, { schema, limits: benchLimits });
      return {
        label: name,
        format: name,
        implementation: 'wirekit',
        encode: (v) => codec.encode(v),
        decode: (b) => codec.decode(b),
      };
    }
  }
}
