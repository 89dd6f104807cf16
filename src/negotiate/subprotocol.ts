/**
 * WebSocket subprotocol negotiation (RFC 6455 §1.9, §4.2.2): a client lists the protocols it
 * speaks on `Sec-WebSocket-Protocol`, most preferred first, and the server answers with one of
 * them or with none. wirekit's are `wirekit.<format>` (`wirekit.msgpack`, …); a client that offers
 * none of them (a browser console, websocat) gets JSON in text frames, with no protocol selected.
 * A client that offered protocols and got none back fails the connection itself, as RFC 6455
 * requires, so an offer of only unknown protocols is refused by the client, not guessed at here.
 */

/** The prefix of wirekit's subprotocols: `wirekit.` and a format name. */
export const subprotocolPrefix = 'wirekit.';

/** Offers past this many are ignored: a header cannot make the server walk an unbounded list. */
export const maxOfferedSubprotocols = 32;

/** RFC 7230 token characters: what a subprotocol name may be made of. */
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The protocols offered, in the client's order: trimmed, empty and non-token entries dropped, at most 32. */
export function parseSubprotocols(header: string | readonly string[] | undefined): string[] {
  if (header === undefined) return [];
  const text = typeof header === 'string' ? header : header.join(',');
  const out: string[] = [];
  for (const part of text.split(',')) {
    const name = part.trim();
    if (name.length > 0 && name.length <= 64 && token.test(name)) out.push(name);
    if (out.length === maxOfferedSubprotocols) break;
  }
  return out;
}

/**
 * The format a `wirekit.<format>` subprotocol names (`wirekit.msgpack` → `msgpack`), or undefined
 * for a name without the prefix (or with nothing after it). Whether that format exists is the
 * caller's to check against what it serves: this is only the naming rule.
 */
export function formatOfSubprotocol(name: string): string | undefined {
  if (!name.startsWith(subprotocolPrefix) || name.length === subprotocolPrefix.length) return undefined;
  return name.slice(subprotocolPrefix.length);
}

/** What a connection speaks: the format, and the protocol to answer with (none for plain JSON). */
export interface SubprotocolChoice<F extends string> {
  readonly format: F | 'json';
  /** The `Sec-WebSocket-Protocol` to send back, or undefined to select none. */
  readonly protocol: string | undefined;
  /** Binary frames for binary formats; JSON goes in text frames, readable in any console. */
  readonly frames: 'text' | 'binary';
}

/**
 * The first offered `wirekit.<format>` whose format is in `formats` (the client's preference
 * wins; the server's list only says what it serves). With none: plain JSON in text frames and no
 * protocol, whatever else was offered.
 */
export function chooseSubprotocol<F extends string>(
  offered: readonly string[],
  formats: readonly F[],
): SubprotocolChoice<F> {
  for (const name of offered) {
    const format = formatOfSubprotocol(name) as F | undefined;
    if (format !== undefined && formats.includes(format)) {
      return { format, protocol: name, frames: format === 'json' ? 'text' : 'binary' };
    }
  }
  return { format: 'json', protocol: undefined, frames: 'text' };
}
