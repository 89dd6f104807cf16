/**
 * protobufjs's static code for the bench service, the message classes the common Node gRPC stack
 * runs (`pbjs -t static-module -w es6`, protobufjs-cli). It is generated from the service's own
 * `toProto` when the bench starts, into .scratch/ (git-ignored, inside the repository so that the
 * generated module's `import "protobufjs/minimal.js"` finds node_modules), and again only when the
 * `.proto` changed. The servers import it by path at run time; pbts's typings are not needed for
 * that, so the few members used are typed here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from '../repo-root.js';
import { protoText } from './service.js';

const folder = join(repoRoot, '.scratch', 'bench-rpc');
const protoPath = join(folder, 'users.proto');
const modulePath = join(folder, 'users.js');

/** Writes the static module unless the one there was generated from the same `.proto`. */
export function generateStaticCode(): string {
  const text = protoText();
  if (existsSync(modulePath) && existsSync(protoPath) && readFileSync(protoPath, 'utf8') === text)
    return modulePath;
  mkdirSync(folder, { recursive: true });
  writeFileSync(protoPath, text);
  const pbjs = fileURLToPath(import.meta.resolve('protobufjs-cli/bin/pbjs'));
  // pbjs's es6 wrapper imports "protobufjs/minimal", which Node's ESM resolver only finds with its extension.
  const args = ['-t', 'static-module', '-w', 'es6', '--dependency', 'protobufjs/minimal.js'];
  execFileSync(process.execPath, [pbjs, ...args, '-o', modulePath, protoPath], { stdio: 'inherit' });
  return modulePath;
}

/** A message class of the static module, as far as the servers use it. */
export interface StaticMessage<T> {
  decode(bytes: Uint8Array): T;
  encode(message: T): { finish(): Uint8Array };
}

export interface StaticUserService {
  readonly GetUserRequest: StaticMessage<{ id: number }>;
  readonly ListUsersRequest: StaticMessage<{ count: number }>;
  readonly User: StaticMessage<StaticUser>;
  readonly UserList: StaticMessage<{ users: StaticUser[] }>;
}

/** A user as protobufjs holds it: a class instance, its Timestamp another (seconds as a Long). */
export type StaticUser = { readonly id: number } & Record<string, unknown>;

export async function importStaticCode(): Promise<StaticUserService> {
  const module = (await import(pathToFileURL(generateStaticCode()).href)) as {
    bench: { v1: StaticUserService };
  };
  return module.bench.v1;
}
