/**
 * `wirekit encode` without a schema, as a person runs it (the built CLI, JSON on standard input):
 * integral numbers come out as MessagePack and CBOR integers, which Python's msgpack and cbor2 read
 * as `int`, not `float` (docs/mapping/msgpack.md and cbor.md, *Without a schema*).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { runPython } from '../support/python.js';
import { has } from '../support/tools.js';

const input =
  '{"n":4294967296,"id":9007199254740672,"neg":-2147483649,"small":7,"f":0.5,"big":9007199254740993}';

describe.skipIf(!(has('python:msgpack') && has('python:cbor2')))('wirekit encode: integers', () => {
  test.each(['msgpack', 'cbor'])('%s: Python reads integral numbers as int, others as float', (format) => {
    const encoded = spawnSync(process.execPath, ['dist/cli/main.js', 'encode', '--format', format], {
      input,
    });
    expect(encoded.stderr.toString()).toBe('');
    expect(encoded.status).toBe(0);
    const read = runPython(
      `import sys, json, msgpack, cbor2
data = sys.stdin.buffer.read()
d = msgpack.unpackb(data, raw=False) if '${format}' == 'msgpack' else cbor2.loads(data)
print(json.dumps({k: [type(v).__name__, repr(v)] for k, v in d.items()}))`,
      new Uint8Array(encoded.stdout),
    );
    expect(JSON.parse(read.toString())).toEqual({
      n: ['int', '4294967296'],
      id: ['int', '9007199254740672'],
      neg: ['int', '-2147483649'],
      small: ['int', '7'],
      f: ['float', '0.5'],
      // JSON.parse already rounds 2^53 + 1 to the float 2^53, beyond the safe range: a float it stays.
      big: ['float', '9007199254740992.0'],
    });
  });
});
