import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  errorCodes,
  isWirekitError,
  prependPath,
  SchemaImportError,
  WirekitBug,
  WirekitError,
} from '../../src/errors/index.js';

const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const documented = [...docs.matchAll(/^## (WK_[A-Z0-9_]+)\s*$/gm)].map((match) => match[1]);

describe('error registry', () => {
  test('docs/errors.md documents exactly the registered codes, in order', () => {
    expect(documented).toEqual(Object.keys(errorCodes));
  });

  test('every documented code says how to fix it', () => {
    const sections = docs.split(/^## /m).slice(1);
    for (const section of sections) expect(section, section.split('\n')[0]).toMatch(/\*\*Fix:\*\*/);
  });

  test('errors carry code, path and offset', () => {
    const error = new WirekitError('WK_VALIDATION_FAILED', 'bad', { path: ['a', 0], offset: 3 });
    expect(error).toBeInstanceOf(Error);
    expect(isWirekitError(error, 'WK_VALIDATION_FAILED')).toBe(true);
    expect(isWirekitError(error, 'WK_SCHEMA_INVALID')).toBe(false);
    expect([error.code, error.path, error.offset, error.name]).toEqual([
      'WK_VALIDATION_FAILED',
      ['a', 0],
      3,
      'WirekitError',
    ]);
  });

  test('an error says which wire format raised it, and keeps it when a path is put in front', () => {
    const error = new WirekitError('WK_DECODE_MALFORMED', 'a bad byte', { path: [], format: 'avro' });
    expect(error.format).toBe('avro');
    expect(new WirekitError('WK_LIMIT_INPUT', 'too big').format).toBeUndefined();
    const moved = prependPath(prependPath(error, 'b'), 'a') as WirekitError;
    expect([moved.message, moved.path, moved.format]).toEqual(['a.b: a bad byte', ['a', 'b'], 'avro']);
  });

  test('a wirekit bug is a plain Error with no code, asking to be reported', () => {
    const bug = new WirekitBug('a plan disagrees with its schema');
    expect(bug).toBeInstanceOf(Error);
    expect(isWirekitError(bug)).toBe(false);
    expect(bug.name).toBe('WirekitBug');
    expect(bug.message).toMatch(/^wirekit bug: a plan disagrees with its schema\. .*please report it/);
  });

  test('a schema file that cannot be imported says where, in fields and as a compiler does', () => {
    const error = new SchemaImportError("expected ';'", { file: 'order.proto', line: 12, column: 5 });
    expect(isWirekitError(error, 'WK_SCHEMA_IMPORT')).toBe(true);
    expect([error.name, error.file, error.line, error.column]).toEqual([
      'SchemaImportError',
      'order.proto',
      12,
      5,
    ]);
    expect(error.message).toBe("order.proto:12:5: expected ';'");
    expect(new SchemaImportError('no line known', { file: 'user.avsc' }).message).toBe(
      'user.avsc: no line known',
    );
    expect(new SchemaImportError('nowhere').message).toBe('nowhere');
  });
});
