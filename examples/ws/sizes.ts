/**
 * Bytes per message of the example's tick in every format, read off a running `examples/ws`
 * server: one raw `ws` client per subprotocol reads --count ticks, decodes each with wirekit (so
 * the sizes are of messages that arrived whole and valid) and the table compares them with JSON.
 *
 *   npx tsx examples/ws/sizes.ts [--port 3000] [--count 200]
 */
import { parseArgs } from 'node:util';
import { createCodec } from 'wirekit-ts/codecs';
import { socketFormats } from 'wirekit-ts/ws';
import WebSocket from 'ws';
import { Tick } from './tick.js';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '3000' }, count: { type: 'string', default: '200' } },
});
const url = `ws://127.0.0.1:${values.port}/ws`;
const count = Number(values.count);

/** Reads `count` messages in `format`; resolves their total payload bytes. */
function read(format: string): Promise<number> {
  const codec = createCodec(format as (typeof socketFormats)[number], { schema: Tick });
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, [`wirekit.${format}`]);
    let bytes = 0;
    let seen = 0;
    socket.on('message', (data: Buffer) => {
      codec.decode(new Uint8Array(data.buffer, data.byteOffset, data.length));
      bytes += data.length;
      if (++seen === count) {
        socket.close();
        resolve(bytes);
      }
    });
    socket.on('error', reject);
  });
}

const sizes = await Promise.all(
  socketFormats.map(async (format) => [format, (await read(format)) / count] as const),
);
const json = sizes.find(([format]) => format === 'json')?.[1] ?? Number.NaN;
console.log(`${count} ticks per format from ${url}\n`);
console.log('format    bytes/msg  vs JSON');
for (const [format, size] of sizes) {
  const saving = format === 'json' ? '' : `  ${((1 - size / json) * 100).toFixed(0)} % smaller`;
  console.log(`${format.padEnd(9)} ${size.toFixed(1).padStart(9)}  ${(size / json).toFixed(2)}${saving}`);
}
console.log('\n(Payload bytes; each frame adds a 2-byte header on the wire from server to client.)');
