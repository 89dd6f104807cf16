/**
 * The price tick of issue 17: the message a market-data WebSocket streams many times a second, the
 * kind of payload the field report switched from JSON to MessagePack. Ten fields: a symbol, three
 * prices, a volume, a change, a venue (an enum, a name in JSON and MessagePack, an index in
 * protobuf and Avro), a sequence number, a timestamp and a flag. Shared by the WebSocket
 * benchmark and `examples/ws`.
 */

import { seededRandom } from 'wirekit-ts/lab';
import { type Infer, t } from 'wirekit-ts/schema';

export const Venue = t.enum('Venue', ['XNAS', 'XNYS', 'XAMS', 'XPAR', 'XLON', 'XETR']);

export const Tick = t.object('Tick', {
  symbol: t.string({ maxLength: 12 }),
  bid: t.float64(),
  ask: t.float64(),
  last: t.float64(),
  volume: t.uint32(),
  /** Percent since the previous close, rounded to 0.01. */
  change: t.float64(),
  venue: Venue,
  sequence: t.uint32(),
  at: t.timestamp(),
  halted: t.bool(),
});

export type Tick = Infer<typeof Tick>;

const listings: readonly { symbol: string; venue: Infer<typeof Venue>; close: number }[] = [
  { symbol: 'AAPL', venue: 'XNAS', close: 231.4 },
  { symbol: 'MSFT', venue: 'XNAS', close: 447.12 },
  { symbol: 'NVDA', venue: 'XNAS', close: 141.9 },
  { symbol: 'JPM', venue: 'XNYS', close: 242.05 },
  { symbol: 'KO', venue: 'XNYS', close: 63.27 },
  { symbol: 'ASML', venue: 'XAMS', close: 687.25 },
  { symbol: 'ADYEN', venue: 'XAMS', close: 1418.6 },
  { symbol: 'MC', venue: 'XPAR', close: 612.3 },
  { symbol: 'AIR', venue: 'XPAR', close: 151.88 },
  { symbol: 'SHEL', venue: 'XLON', close: 25.64 },
  { symbol: 'SAP', venue: 'XETR', close: 236.15 },
  { symbol: 'SIE', venue: 'XETR', close: 188.42 },
];

const cents = (value: number) => Math.round(value * 100) / 100;

/**
 * A deterministic stream of ticks: each call moves one listing's price a little (a random walk in
 * cents), so the numbers have the digits real prices have and every run sends the same bytes.
 * `now` stamps the tick (the bench passes the clock; tests may pass a fixed date).
 */
export function tickSource(seed = 17): (now?: Date) => Tick {
  const random = seededRandom(seed);
  const prices = listings.map((listing) => listing.close);
  let sequence = 0;
  return (now = new Date()) => {
    const index = sequence % listings.length;
    const listing = listings[index] as (typeof listings)[number];
    const last = cents(Math.max(0.01, (prices[index] as number) + (random.next() - 0.5) * 0.2));
    prices[index] = last;
    const spread = cents(0.01 + random.next() * 0.04);
    sequence++;
    return {
      symbol: listing.symbol,
      bid: cents(last - spread),
      ask: cents(last + spread),
      last,
      volume: random.int(1, 5_000),
      change: cents(((last - listing.close) / listing.close) * 100),
      venue: listing.venue,
      sequence: sequence >>> 0,
      at: now,
      halted: false,
    };
  };
}
