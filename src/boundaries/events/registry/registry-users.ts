/**
 * Where the registry server's users come from: a file, or the environment; never a command line,
 * which any local user can read from the process list.
 *
 * The file has one user per line, the role first, then the user's Basic auth credentials as a
 * client writes them; blank lines and lines starting with `#` are skipped:
 *
 *   # role  user:password
 *   admin   ops:correct horse battery staple
 *   write   orders-service:s3cret
 *   read    dashboards:an0ther
 *
 * The password is the rest of the line after the first colon, spaces included. The environment
 * gives one user per role: WIREKIT_REGISTRY_ADMIN, WIREKIT_REGISTRY_WRITER, WIREKIT_REGISTRY_READER,
 * each `user:password`. A mistake is refused naming the line or variable, never showing its text.
 */
import { constants, open } from 'node:fs/promises';
import { WirekitError } from '../../../errors/index.js';
import { type RegistryRole, type RegistryUser, registryRoles } from './basic-auth.js';

/** A users file is a few lines: anything past this is not one. */
const maxFileBytes = 1024 * 1024;

/** The environment variable that gives each role's user. */
const registryUserVariables: Readonly<Record<string, RegistryRole>> = {
  WIREKIT_REGISTRY_ADMIN: 'admin',
  WIREKIT_REGISTRY_WRITER: 'write',
  WIREKIT_REGISTRY_READER: 'read',
};

function invalid(where: string, why: string): WirekitError {
  return new WirekitError('WK_OPTIONS_INVALID', `the registry's users at ${where}: ${why}`);
}

/** `user:password`, split where RFC 7617 splits it: at the first colon. */
function credentialsOf(text: string, role: RegistryRole, where: string): RegistryUser {
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) {
    throw invalid(where, 'expected user:password, with neither empty');
  }
  return { username: text.slice(0, colon), password: text.slice(colon + 1), role };
}

/** The users a file's text lists; `name` says where, in errors. */
export function parseRegistryUsers(text: string, name: string): RegistryUser[] {
  const users: RegistryUser[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const where = `${name}:${index + 1}`;
    const space = trimmed.search(/[ \t]/);
    const role = registryRoles.find((known) => known === (space === -1 ? trimmed : trimmed.slice(0, space)));
    if (role === undefined || space === -1) {
      throw invalid(where, `expected a role (${registryRoles.join(', ')}), then user:password`);
    }
    users.push(credentialsOf(trimmed.slice(space).trimStart(), role, where));
  }
  return users;
}

/** The users listed in the file at `path` (read to at most 1 MiB). */
export async function readRegistryUsers(path: string): Promise<RegistryUser[]> {
  let text: string;
  try {
    const handle = await open(path, constants.O_RDONLY);
    try {
      // A FIFO or device given as the path would be read forever.
      const stat = await handle.stat();
      if (!stat.isFile()) throw new Error('it is not a regular file');
      if (stat.size > maxFileBytes) throw new Error(`it is larger than ${maxFileBytes} bytes`);
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new WirekitError('WK_OPTIONS_INVALID', `the registry's users file ${path} cannot be read: ${why}`, {
      cause,
    });
  }
  return parseRegistryUsers(text, path);
}

/** The users the environment gives (WIREKIT_REGISTRY_ADMIN, _WRITER, _READER), none when unset. */
export function registryUsersFromEnv(env: NodeJS.ProcessEnv = process.env): RegistryUser[] {
  const users: RegistryUser[] = [];
  for (const [variable, role] of Object.entries(registryUserVariables)) {
    const value = env[variable];
    if (value !== undefined && value !== '') users.push(credentialsOf(value, role, variable));
  }
  return users;
}
