/**
 * readWsFrames on hostile input (fuzz: messages or a WirekitError, never another exception, never a
 * hang): random bytes, and real frames from ws's Sender.frame with bytes flipped, cut and spliced, which
 * reach far deeper into the parser than random bytes do (valid opcodes, lengths that almost fit).
 * Then the same through `wirekit inspect --ws-frame`: exit 0 or 1, never an internal error.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readWsFrames } from '../../src/cli/ws-frame.js';
import { isWirekitError } from '../../src/errors/index.js';
import { cli } from '../support/cli.js';
import { wsFrame } from '../support/ws-sender.js';

const limit = { maxPayloadBytes: 1 << 20 };

/** One real frame: an opcode ws sends, masked or not, final or not, of a payload up to 300 bytes. */
const frame = fc
  .record({
    opcode: fc.constantFrom(0, 1, 2, 8, 9, 10),
    mask: fc.boolean(),
    fin: fc.boolean(),
    payload: fc.uint8Array({ maxLength: 300 }),
  })
  .map(({ opcode, mask, fin, payload }) =>
    wsFrame(payload, { opcode, mask, fin, readOnly: false, rsv1: false }),
  );

/** Frames back to back, then mutated: bytes overwritten, the end cut, or nothing changed. */
const mutatedFrames = fc
  .tuple(
    fc.array(frame, { minLength: 1, maxLength: 6 }),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
    fc.option(fc.nat()),
  )
  .map(([frames, flips, cut]) => {
    const bytes = Uint8Array.from(Buffer.concat(frames));
    for (const [at, value] of flips) if (bytes.length > 0) bytes[at % bytes.length] = value;
    return cut === null ? bytes : bytes.subarray(0, cut % (bytes.length + 1));
  });

function readOrRefuse(input: Uint8Array): void {
  try {
    const read = readWsFrames(input, limit);
    // What is returned holds together: payloads within the input, frames counted.
    for (const message of read.messages) expect(message.payload.length).toBeLessThanOrEqual(input.length);
    expect(read.frames).toBeGreaterThanOrEqual(read.messages.length + read.controls.length);
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    expect(['WK_CLI_INPUT', 'WK_LIMIT_INPUT']).toContain(error.code);
  }
}

describe('readWsFrames', () => {
  test('fuzz: random bytes are frames or a WirekitError', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), readOrRefuse), { numRuns: 5000 });
  });

  test('fuzz: real frames, mutated, are frames or a WirekitError, quickly', () => {
    const started = Date.now();
    fc.assert(fc.property(mutatedFrames, readOrRefuse), { numRuns: 5000 });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test('fuzz: unmutated frames that form whole messages read back to their payloads', () => {
    const message = fc.record({
      opcode: fc.constantFrom(1, 2),
      mask: fc.boolean(),
      parts: fc.array(fc.uint8Array({ maxLength: 200 }), { minLength: 1, maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 4 }), (messages) => {
        const bytes = Buffer.concat(
          messages.flatMap(({ opcode, mask, parts }) =>
            parts.map((part, i) =>
              wsFrame(part, {
                opcode: i === 0 ? opcode : 0,
                mask,
                fin: i === parts.length - 1,
                readOnly: false,
                rsv1: false,
              }),
            ),
          ),
        );
        const read = readWsFrames(bytes, limit);
        expect(read.messages.map((m) => [m.opcode, m.masked, m.fragments, Buffer.from(m.payload)])).toEqual(
          messages.map(({ opcode, mask, parts }) => [
            opcode === 1 ? 'text' : 'binary',
            mask,
            parts.length,
            Buffer.concat(parts),
          ]),
        );
      }),
      { numRuns: 1000 },
    );
  });

  test('a huge declared length over few bytes is refused at once, without allocating it', () => {
    const started = Date.now();
    // Up to 2^55: those under 2^53 are cut short (3 bytes are there), the rest past the limit.
    for (let top = 0; top < 0x80; top++) {
      const bytes = Uint8Array.of(0x82, 127, 0, top, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3);
      expect(() => readWsFrames(bytes, { maxPayloadBytes: 2 ** 53 })).toThrow(/cut short|limit/);
    }
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('wirekit inspect --ws-frame on mutated frames', () => {
  test('fuzz: exit 0 or 1 with an error code, never an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedFrames, async (input) => {
        const result = await cli(['inspect', '-', '--ws-frame', '--format', 'wirekit.msgpack'], input);
        expect(result.stderr).not.toContain('internal error');
        if (result.code !== 0) {
          expect(result.code).toBe(1);
          expect(result.stderr).toMatch(/^wirekit: WK_[A-Z_]+: /);
        }
      }),
      { numRuns: 300 },
    );
  });
});
