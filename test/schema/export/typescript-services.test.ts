/**
 * `toTypeScript` of services: each is written as `export const X = t.service(…)` after the messages
 * its methods name, with only the options it declares; the module is what Biome formats it to,
 * compiles under the project's strict options (its handlers type-check against it), and rebuilds
 * services equal to the originals, their messages compared by JSON form.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';
import { toTypeScript } from '../../../src/schema/export/index.js';
import { isService, type ServiceSchema, schemaToJson, t } from '../../../src/schema/index.js';
import { Message, OrderService } from '../../fixtures/order-service.js';
import { codeOf } from '../../support/code-of.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
// .scratch/ is git-ignored; the module imports the builders from src/ by a relative path.
const dir = `${root}.scratch/typescript-services-${process.pid}/`;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const Echo = t.service(
  'echo.Echo',
  { Say: t.unary(Message, Message, { doc: 'Says it back.\nOnce.', deprecated: true }) },
  { doc: "The echo's service", deprecated: true },
);
// A service whose name is a message's: the module declares them under two identifiers.
const Clash = t.service('billing.Line', { Bill: t.unary(Message, Message) });
const Sketch = t.service('Sketch', {});
const services: readonly ServiceSchema[] = [OrderService, Echo, Clash, Sketch];

/** A service with its methods' messages by JSON form, which t.lazy references do not change. */
function comparable(service: ServiceSchema) {
  return {
    ...service,
    methods: Object.entries(service.methods).map(([name, method]) => ({
      ...method,
      name,
      input: schemaToJson(method.input),
      output: schemaToJson(method.output),
    })),
  };
}

describe('toTypeScript of services', () => {
  mkdirSync(dir, { recursive: true });
  const text = toTypeScript(services, { importFrom: '../../src/index.js' });
  const file = `${dir}services.ts`;
  writeFileSync(file, text);

  test('t.service calls after the messages, with the options declared', () => {
    expect(text).toContain(
      [
        "export const OrderService = t.service('orders.v1.OrderService', {",
        "  GetOrder: t.unary(GetOrderRequest, Order, { idempotency: 'NO_SIDE_EFFECTS' }),",
        '  WatchOrders: t.serverStream(WatchRequest, OrderEvent),',
        "  Upload: t.clientStream(v1_Line, Summary, { idempotency: 'IDEMPOTENT' }),",
        '  Chat: t.bidiStream(Message, Message, { deprecated: true }),',
        '});',
      ].join('\n'),
    );
    expect(text).toContain(
      [
        'export const Echo = t.service(',
        "  'echo.Echo',",
        '  {',
        "    Say: t.unary(Message, Message, { deprecated: true, doc: 'Says it back.\\nOnce.' }),",
        '  },',
        '  { deprecated: true, doc: "The echo\'s service" },',
        ');',
      ].join('\n'),
    );
    expect(text).toContain("export const Sketch = t.service('Sketch', {});");
    expect(text).toMatch(/^export const billing_Line = t\.service\('billing\.Line', \{$/m);
    expect(text).toMatch(/^export const v1_Line = t\.object\($/m);
    const declared = [...text.matchAll(/^export const (\w+)/gm)].map((m) => m[1] as string);
    expect(declared.indexOf('OrderService')).toBeGreaterThan(declared.indexOf('Order'));
    expect(declared.slice(-4)).toEqual(['OrderService', 'Echo', 'billing_Line', 'Sketch']);
  });

  test('the module is what Biome formats it to', () => {
    const biome = spawnSync(`${root}node_modules/.bin/biome`, ['format', '--stdin-file-path=generated.ts'], {
      input: text,
      encoding: 'utf8',
    });
    expect(biome.status, biome.stderr).toBe(0);
    expect(biome.stdout).toBe(text);
  });

  test('the module compiles, and handlers typed from its service check against it', () => {
    const handlers = `${dir}handlers.ts`;
    writeFileSync(
      handlers,
      [
        "import type { ServiceHandlers } from '../../src/index.js';",
        "import type { Echo } from './services.js';",
        'export const good: ServiceHandlers<typeof Echo> = { Say: async (message) => message };',
        '// @ts-expect-error the reply is a Message, not a string',
        "export const bad: ServiceHandlers<typeof Echo> = { Say: async () => 'no' };",
        '',
      ].join('\n'),
    );
    const config = ts.getParsedCommandLineOfConfigFile(
      `${root}tsconfig.json`,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => {
          throw new Error('tsconfig.json could not be read');
        },
      },
    );
    if (config === undefined) throw new Error('tsconfig.json could not be read');
    const program = ts.createProgram({
      rootNames: [file, handlers],
      options: { ...config.options, noEmit: true },
    });
    const errors = [file, handlers].flatMap((name) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(name))
        .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
    );
    expect(errors).toEqual([]);
  }, 60_000);

  test('importing the module rebuilds the services', async () => {
    const built = Object.values((await import(file)) as Record<string, unknown>).filter(isService);
    const byName = (list: readonly ServiceSchema[]) =>
      new Map(list.map((s) => [`${s.namespace}.${s.name}`, comparable(s)]));
    expect(byName(built)).toEqual(byName(services));
  });

  test('a service and a type of one full name cannot both be declared', () => {
    const Same = t.service('orders.v1.Order', { Get: t.unary(Message, Message) });
    expect(codeOf(() => toTypeScript([OrderService, Same]))).toBe('WK_SCHEMA_INVALID');
  });
});
