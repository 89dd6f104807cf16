/**
 * Python's json as the independent judge of where malformed JSON goes wrong (syntax.test.ts): on
 * every ASCII case, Python's JSONDecodeError.pos is wirekit's offset (or the case's `python`, where
 * Python names the start of the token it could not read), and every valid text is valid to Python.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { syntaxCases, validTexts } from '../../fixtures/json-syntax-cases.js';
import { has, python } from '../../support/tools.js';

/** Python's positions count characters, wirekit's bytes: they agree on ASCII text. */
const isAscii = (text: string) => [...text].every((char) => char.charCodeAt(0) < 0x80);

describe.skipIf(!has('python:json'))("Python's json as the reference", () => {
  const ascii = syntaxCases.filter((c) => isAscii(c.text));
  /** Python's JSONDecodeError.pos per text, 'constant' where only parse_constant refused it, null where it read it. */
  const positions = (() => {
    const script = `
import json, sys
def refuse(name): raise ValueError(name)
out = []
for text in json.load(sys.stdin):
    try:
        json.loads(text, parse_constant=refuse)
        out.append(None)
    except json.JSONDecodeError as error:
        out.append(error.pos)
    except ValueError:
        out.append('constant')
print(json.dumps(out))
`;
    const result = spawnSync(python, ['-c', script], { input: JSON.stringify(ascii.map((c) => c.text)) });
    if (result.status !== 0) throw new Error(`python failed: ${result.stderr.toString()}`);
    return JSON.parse(result.stdout.toString()) as (number | 'constant' | null)[];
  })();

  test.each(ascii.map((c, i) => [c.name, c, i] as const))('%s', (_name, c, i) => {
    const position = positions[i];
    // NaN and the infinities Python reads by design; refused by parse_constant, they are no JSON.
    if (c.python === 'accepts') expect(position).toBe('constant');
    else expect(position).toBe(c.python ?? c.offset);
  });

  test('every valid text is valid to Python too', () => {
    const texts = validTexts.filter(isAscii);
    const result = spawnSync(
      python,
      ['-c', 'import json,sys\nfor t in json.load(sys.stdin): json.loads(t)'],
      {
        input: JSON.stringify(texts),
      },
    );
    expect(result.stderr.toString()).toBe('');
    expect(result.status).toBe(0);
  });
});
