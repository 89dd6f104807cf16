/**
 * The built bin as a user runs it (npx wirekit), with protoc as the judge: `schema infer` piped into
 * `schema export --to proto` gives a .proto file protoc accepts. The commands themselves are in
 * schema-command.test.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { schemaFromJson, validate } from '../../src/index.js';
import { has, withTempDir } from '../support/tools.js';

const users = 'examples/data/users.ndjson';

describe.skipIf(!has('protoc'))('the built bin', () => {
  test('npx wirekit pipes infer into export, and protoc accepts the result', () => {
    withTempDir((dir) => {
      const schema = execFileSync('npx', ['wirekit', 'schema', 'infer', users, '--name', 'User'], {
        encoding: 'utf8',
      });
      const proto = execFileSync('npx', ['wirekit', 'schema', 'export', '--to', 'proto', '-'], {
        input: schema,
        encoding: 'utf8',
      });
      writeFileSync(join(dir, 'user.proto'), proto);
      const result = spawnSync('protoc', [
        `--proto_path=${dir}`,
        '--descriptor_set_out=/dev/null',
        'user.proto',
      ]);
      expect(result.stderr.toString()).toBe('');
      expect(result.status).toBe(0);
      expect(validate(schemaFromJson(JSON.parse(schema)), {})).not.toEqual([]);
    });
  });
});
