import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { externalTestFiles, testRoots } from './test/support/tiers.js';

/**
 * Two tiers (test/support/tiers.ts decides them from what each file uses): `unit` needs nothing but
 * `npm ci` (`npm run test:unit`), `external` needs a server, a browser, Python, protoc, flatc or
 * another program from outside npm. `npm test` runs both; every test file is in exactly one, since
 * the unit tier is every test file but the external ones.
 */
const external = externalTestFiles(fileURLToPath(new URL('.', import.meta.url)));
const include = testRoots.map((dir) => `${dir}/**/*.test.ts`);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include,
          exclude: [...configDefaults.exclude, ...external],
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
          // A probe (tools.ts) asked in this tier means the classification missed a file: it throws.
          env: { WIREKIT_TEST_TIER: 'unit' },
        },
      },
      { extends: true, test: { name: 'external', include: external } },
    ],
  },
});
