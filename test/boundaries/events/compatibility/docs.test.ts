/**
 * docs/compatibility.md names the error type of every rule: people read it to learn what a
 * registry's verbose answer means, so a rule whose error type the page does not name (a rule added,
 * a type renamed) fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const rules = new URL('../../../../src/boundaries/events/compatibility/', import.meta.url).pathname;
const page = readFileSync(new URL('../../../../docs/compatibility.md', import.meta.url), 'utf8');

/** Every error type a rule module names: in a finding it makes, or in its union of error types. */
function errorTypes(text: string): string[] {
  const made = [...text.matchAll(/errorType: '([A-Z_]+)'/g)];
  const declared = [...text.matchAll(/^\s*\| '([A-Z_]+)'$/gm)];
  return [...made, ...declared].map((match) => match[1] as string);
}

test('docs/compatibility.md names every error type the rules report', () => {
  const types = new Set(
    readdirSync(rules).flatMap((name) => errorTypes(readFileSync(join(rules, name), 'utf8'))),
  );
  expect(types.size).toBeGreaterThan(30);
  expect([...types].filter((type) => !page.includes(`\`${type}\``))).toEqual([]);
});

test('the check finds an error type the page lacks', () => {
  expect(errorTypes("return { errorType: 'FIELD_VANISHED', path };")).toEqual(['FIELD_VANISHED']);
  expect(page.includes('`FIELD_VANISHED`')).toBe(false);
});
