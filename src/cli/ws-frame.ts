/**
 * RFC 6455 frames as captured off the wire (`wirekit inspect --ws-frame`), read back into the
 * messages they carry: fragments joined, masks undone, control frames (ping, pong, close) reported
 * beside the messages rather than taken for payloads. The input is untrusted bytes, so every
 * length is checked against the bytes present and the limit before anything is allocated, and
 * whatever the RFC forbids is refused with WK_CLI_INPUT (a length past the limit with
 * WK_LIMIT_INPUT), naming the frame and its offset. Non-minimal length encodings are accepted: a
 * capture is read, not policed, and they say nothing ambiguous.
 */

import { WirekitError } from '../errors/index.js';
import { joinBytes } from '../util/join-bytes.js';

export type WsOpcode = 'continuation' | 'text' | 'binary' | 'close' | 'ping' | 'pong';

const opcodes: Readonly<Record<number, WsOpcode>> = {
  0: 'continuation',
  1: 'text',
  2: 'binary',
  8: 'close',
  9: 'ping',
  10: 'pong',
};

/** One data message: a text or binary frame and its continuations. */
export interface WsMessage {
  /** The index (from 0) of the frame that started it, among all frames of the input. */
  readonly frame: number;
  readonly opcode: 'text' | 'binary';
  /** Whether its frames were masked (client to server). */
  readonly masked: boolean;
  /** How many frames carried it (1: not fragmented). */
  readonly fragments: number;
  /** The payload, unmasked and joined. */
  readonly payload: Uint8Array;
  /** The bytes of its frames on the wire, headers included. */
  readonly wireBytes: number;
}

/** A ping, pong or close frame: said, never decoded as a message. */
export interface WsControl {
  readonly frame: number;
  readonly opcode: 'close' | 'ping' | 'pong';
  readonly masked: boolean;
  readonly payload: Uint8Array;
  /** A close frame's status code, when it carries one. */
  readonly code?: number;
  /** A close frame's reason (UTF-8), when it carries a code. */
  readonly reason?: string;
}

export interface WsFrames {
  /** How many frames the input held. */
  readonly frames: number;
  readonly messages: readonly WsMessage[];
  readonly controls: readonly WsControl[];
}

export interface ReadWsFramesOptions {
  /** The largest payload a frame, or a message joined from fragments, may have. */
  readonly maxPayloadBytes: number;
}

/** A control frame's payload may not exceed this (RFC 6455 §5.5). */
const maxControlPayload = 125;

const utf8 = new TextDecoder('utf-8', { fatal: true });

interface Frame {
  readonly fin: boolean;
  readonly opcode: WsOpcode;
  readonly masked: boolean;
  readonly payload: Uint8Array;
  readonly end: number;
}

/** The frames in `bytes`, back to back, read into messages and control frames (see the module comment). */
export function readWsFrames(bytes: Uint8Array, options: ReadWsFramesOptions): WsFrames {
  const messages: WsMessage[] = [];
  const controls: WsControl[] = [];
  /** The fragmented message under way: its first frame, masking, parts and wire size so far. */
  let open:
    | {
        frame: number;
        opcode: 'text' | 'binary';
        masked: boolean;
        parts: Uint8Array[];
        size: number;
        wire: number;
      }
    | undefined;
  let offset = 0;
  let index = 0;
  if (bytes.length === 0)
    throw new WirekitError('WK_CLI_INPUT', 'The input is empty: there is no WebSocket frame to read.');
  while (offset < bytes.length) {
    const frame = readFrame(bytes, offset, index, options.maxPayloadBytes);
    const wire = frame.end - offset;
    const at = (what: string) => refuse(what, index, offset);
    if (frame.opcode === 'close' || frame.opcode === 'ping' || frame.opcode === 'pong') {
      // Control frames may come between the fragments of a message (§5.4), so `open` stays.
      controls.push(control(frame, index, offset));
    } else if (frame.opcode === 'continuation') {
      if (open === undefined)
        throw at('is a continuation frame (opcode 0) with no text or binary frame before it to continue');
      if (frame.masked !== open.masked)
        throw at(
          `continues a message whose frames were ${open.masked ? '' : 'not '}masked, but is ${frame.masked ? '' : 'not '}masked: a capture of both directions interleaves them, so capture one direction`,
        );
      open.size += frame.payload.length;
      if (open.size > options.maxPayloadBytes)
        throw new WirekitError(
          'WK_LIMIT_INPUT',
          `WebSocket frame ${index} (at byte ${offset}) makes the message begun at frame ${open.frame} larger than the limit of ${options.maxPayloadBytes} bytes.`,
          { offset },
        );
      open.parts.push(frame.payload);
      open.wire += wire;
      if (frame.fin) {
        messages.push({
          frame: open.frame,
          opcode: open.opcode,
          masked: open.masked,
          fragments: open.parts.length,
          payload: joinBytes(open.parts, open.size),
          wireBytes: open.wire,
        });
        open = undefined;
      }
    } else {
      if (open !== undefined)
        throw at(
          `starts a new ${frame.opcode} message while the one begun at frame ${open.frame} is unfinished (its last fragment, with FIN set, never came)`,
        );
      if (frame.fin) {
        messages.push({
          frame: index,
          opcode: frame.opcode,
          masked: frame.masked,
          fragments: 1,
          payload: frame.payload,
          wireBytes: wire,
        });
      } else {
        open = {
          frame: index,
          opcode: frame.opcode,
          masked: frame.masked,
          parts: [frame.payload],
          size: frame.payload.length,
          wire,
        };
      }
    }
    offset = frame.end;
    index += 1;
  }
  if (open !== undefined)
    throw refuse(
      `begins a fragmented ${open.opcode} message whose last fragment (FIN set) is missing: the input ends after ${open.parts.length} fragment${open.parts.length === 1 ? '' : 's'}`,
      open.frame,
      undefined,
    );
  return { frames: index, messages, controls };
}

/** One frame at `offset`: its header checked, its payload unmasked (a copy, the input untouched). */
function readFrame(bytes: Uint8Array, offset: number, index: number, limit: number): Frame {
  const at = (what: string) => refuse(what, index, offset);
  const available = bytes.length - offset;
  if (available < 2) throw at(`is cut short: a frame header takes at least 2 bytes, ${available} left`);
  const first = bytes[offset] as number;
  const second = bytes[offset + 1] as number;
  const fin = (first & 0x80) !== 0;
  if ((first & 0x70) !== 0)
    throw at(
      `has reserved bits set (RSV ${(first >> 4) & 0x7}): an extension such as permessage-deflate compressed it, which inspect does not undo (capture with compression off: ws's perMessageDeflate: false, or a browser without the extension)`,
    );
  const code = first & 0x0f;
  const opcode = opcodes[code];
  if (opcode === undefined) throw at(`has the reserved opcode 0x${code.toString(16)}`);
  const masked = (second & 0x80) !== 0;
  const short = second & 0x7f;
  let length: number;
  let pos = offset + 2;
  if (short < 126) {
    length = short;
  } else if (short === 126) {
    if (bytes.length - pos < 2) throw at('is cut short inside its 16-bit payload length');
    length = ((bytes[pos] as number) << 8) | (bytes[pos + 1] as number);
    pos += 2;
  } else {
    if (bytes.length - pos < 8) throw at('is cut short inside its 64-bit payload length');
    const high = new DataView(bytes.buffer, bytes.byteOffset + pos, 8).getUint32(0);
    const low = new DataView(bytes.buffer, bytes.byteOffset + pos, 8).getUint32(4);
    if (high >= 0x8000_0000)
      throw at('has a 64-bit payload length with its most significant bit set, which RFC 6455 forbids');
    // Past 2^53 a number is no longer exact, and no limit reaches that far: say so before computing.
    length = high >= 0x20_0000 ? Number.POSITIVE_INFINITY : high * 0x1_0000_0000 + low;
    pos += 8;
  }
  const isControl = code >= 0x8;
  if (isControl && !fin) throw at(`is a fragmented ${opcode} frame: control frames cannot be fragmented`);
  if (isControl && length > maxControlPayload)
    throw at(
      `is a ${opcode} frame with a ${length}-byte payload: control frames carry at most ${maxControlPayload}`,
    );
  if (length > limit)
    throw new WirekitError(
      'WK_LIMIT_INPUT',
      `WebSocket frame ${index} (at byte ${offset}) declares a ${Number.isFinite(length) ? length : '2^53 or more'}-byte payload, larger than the limit of ${limit} bytes (--max-input-bytes).`,
      { offset },
    );
  let key: Uint8Array | undefined;
  if (masked) {
    if (bytes.length - pos < 4) throw at('is cut short inside its masking key');
    key = bytes.subarray(pos, pos + 4);
    pos += 4;
  }
  if (bytes.length - pos < length)
    throw at(`is cut short: it declares a ${length}-byte payload, ${bytes.length - pos} bytes are left`);
  const payload = bytes.slice(pos, pos + length);
  if (key !== undefined)
    for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (key[i & 3] as number);
  return { fin, opcode, masked, payload, end: pos + length };
}

function control(frame: Frame, index: number, offset: number): WsControl {
  const base = {
    frame: index,
    opcode: frame.opcode as WsControl['opcode'],
    masked: frame.masked,
    payload: frame.payload,
  };
  if (frame.opcode !== 'close' || frame.payload.length === 0) return base;
  // A close body is a 2-byte code, then an optional UTF-8 reason (§5.5.1).
  if (frame.payload.length === 1)
    throw refuse(
      'is a close frame with a 1-byte body: a close body is empty or a 2-byte code and a reason',
      index,
      offset,
    );
  const code = ((frame.payload[0] as number) << 8) | (frame.payload[1] as number);
  let reason: string;
  try {
    reason = utf8.decode(frame.payload.subarray(2));
  } catch {
    throw refuse('is a close frame whose reason is not valid UTF-8', index, offset);
  }
  return { ...base, code, reason };
}

function refuse(what: string, index: number, offset: number | undefined): WirekitError {
  const where =
    offset === undefined ? `WebSocket frame ${index}` : `WebSocket frame ${index} (at byte ${offset})`;
  return new WirekitError('WK_CLI_INPUT', `${where} ${what}.`, offset === undefined ? {} : { offset });
}
