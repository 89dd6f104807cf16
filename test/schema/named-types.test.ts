/**
 * Named types survive into what the compiler prints: a module written as the README's tour shows
 * (`interface User extends Infer<typeof UserSchema> {}`, then `Named<User, typeof UserSchema>`) is
 * compiled with the project's options, and the compiler's own `typeToString` of a decoded value,
 * a list, a route handler's body and the client's reply is `User`, and so is the type in the first
 * line of its type errors; without `Named` the same values print their fields. This is what a hover
 * and an error message show.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const virtualFile = `${root}test/schema/__named-types-probe.ts`;

function compile(source: string): { types: Map<string, string>; errors: string[] } {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error('tsconfig.json could not be read');
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (file) => file === virtualFile || ts.sys.fileExists(file);
  host.readFile = (file) => (file === virtualFile ? source : readFile(file));
  host.getSourceFile = (file, language, ...rest) =>
    file === virtualFile
      ? ts.createSourceFile(file, source, language, true)
      : getSourceFile(file, language, ...rest);
  const program = ts.createProgram({ rootNames: [virtualFile], options: config.options, host });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(virtualFile);
  if (file === undefined) throw new Error('the probe was not compiled');
  const types = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text.startsWith('shown')) {
      types.set(node.name.text, checker.typeToString(checker.getTypeAtLocation(node.name)));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  const errors = ts
    .getPreEmitDiagnostics(program, file)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  return { types, errors };
}

const probe = (named: boolean) => `
import { createClient, wirekitRoute } from 'wirekit-ts/http';
import { createCodec } from 'wirekit-ts/codecs';
import { type Infer, type Named, t } from 'wirekit-ts';

const UserSchema = t.object('User', { id: t.int64(), name: t.string(), role: t.field(t.string(), { default: 'member' }) });
export interface User extends Infer<typeof UserSchema> {}
export const User${named ? ': Named<User, typeof UserSchema>' : ''} = UserSchema;

const codec = createCodec('protobuf', { schema: User });
export const shownDecoded = codec.decode(new Uint8Array(0));
export const shownList = createCodec('json', { schema: t.array(User) }).decode(new Uint8Array(0));
wirekitRoute({
  method: 'POST', url: '/users', body: User, reply: User,
  handler: async (request) => {
    const shownBody = request.body;
    return shownBody;
  },
});
export const shownReply = createClient({ baseUrl: 'http://localhost', codecs: [] }).get('/u', { reply: User });
export const notANumber: number = shownDecoded;
codec.encode({ id: 1n, role: 'admin' });
`;

describe('Named', () => {
  test('hovers and errors name the interface', { timeout: 300_000 }, () => {
    const { types, errors } = compile(probe(true));
    expect(Object.fromEntries(types)).toEqual({
      shownDecoded: 'User',
      shownList: 'User[]',
      shownBody: 'User',
      shownReply: 'Promise<User>',
    });
    expect(errors).toEqual([
      "Type 'User' is not assignable to type 'number'.",
      expect.stringMatching(
        /^Argument of type '\{ id: bigint; role: string; \}' is not assignable to parameter of type 'User'\./,
      ),
    ]);
    // Only the elaboration's last line spells the fields out: it names where the property is
    // declared, and an interface that extends the inferred type inherits its members from there.
    expect(errors[1]).toContain("Property 'name' is missing");
  });

  test('without Named, the same values print their fields', { timeout: 300_000 }, () => {
    const { types, errors } = compile(probe(false));
    const fields = /^\{ (?=.*id: bigint;)(?=.*name: string;)(?=.*role: string;).*\}$/;
    expect(types.get('shownDecoded')).toMatch(fields);
    expect(types.get('shownBody')).toMatch(fields);
    expect(errors[0]).not.toContain("'User'");
  });
});
