/**
 * ws's own frame writer, `Sender.frame`, which the real library uses for every frame it sends:
 * exported at run time but absent from @types/ws, so typed here once for the tests that build
 * frames with it.
 */
import * as ws from 'ws';

export interface FrameOptions {
  readonly opcode: number;
  readonly fin: boolean;
  readonly mask: boolean;
  readonly readOnly: boolean;
  readonly rsv1: boolean;
}

const { Sender } = ws as unknown as {
  readonly Sender: { frame(data: Buffer, options: FrameOptions): Buffer[] };
};

/** One frame's bytes as ws writes them (a fresh random mask when `mask`). */
export function wsFrame(data: Uint8Array, options: FrameOptions): Buffer {
  return Buffer.concat(Sender.frame(Buffer.from(data), { ...options }));
}
