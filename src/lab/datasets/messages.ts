/**
 * `messages`: many tiny messages (an integer, a short string, a double), each encoded and decoded
 * in a call of its own, as a queue, a metrics pipe or a chatty RPC sends them. The payload is a few
 * bytes, so what this measures is a codec's fixed cost per call.
 */
import { type Infer, t } from '../../schema/index.js';
import { seededRandom } from '../random.js';
import type { Dataset } from './dataset.js';

export const Message = t.object('Message', {
  seq: t.int32(),
  symbol: t.string(),
  value: t.float64(),
});

export type Message = Infer<typeof Message>;

const symbols = ['AAPL', 'MSFT', 'GOOG', 'AMZN', 'NVDA', 'META', 'TSLA', 'ASML', 'SAP', 'SONY', 'BABA'];

export function messages(count = 50_000, seed = 1): Message[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => ({
    seq: i,
    symbol: random.pick(symbols),
    value: Math.round(random.next() * 1e6) / 100,
  }));
}

export const messagesDataset: Dataset<Message> = {
  name: 'messages',
  description: 'tiny messages (an int, a short string, a double), one per call: the fixed cost per call',
  schema: Message,
  // 5,000 in the lab: each item is also compressed five ways and checked for loss there, which at
  // 50,000 took half a minute per format; bench:overhead times 50,000 calls.
  defaultCount: 5_000,
  unit: 'item',
  generate: messages,
};
