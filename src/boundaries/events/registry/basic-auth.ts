/**
 * Who may do what on the registry server: HTTP Basic authentication (RFC 7617) against a fixed set
 * of users, each with one role. Roles nest: `read` may read (GET, lookups, compatibility checks),
 * `write` may also register schemas (what producers need), `admin` may also delete and change
 * levels and modes. A role is what a user may do, so a consumer's credentials cannot register
 * and a producer's cannot delete.
 *
 * Passwords are kept only as SHA-256 digests, and a presented password is digested and compared
 * with `timingSafeEqual`, so the time an answer takes says nothing about how much of a password
 * was right; an unknown user is compared against a digest of its own, so it takes the same time
 * as a wrong password. A fast digest, not a slow password hash, on purpose: every request is
 * checked, and a slow hash would hand anyone without a password a way to burn the server's CPU.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { WirekitError } from '../../../errors/index.js';

export const registryRoles = ['read', 'write', 'admin'] as const;
export type RegistryRole = (typeof registryRoles)[number];

export interface RegistryUser {
  /** The Basic auth user name (no colon: RFC 7617 ends the name at the first one). */
  readonly username: string;
  readonly password: string;
  readonly role: RegistryRole;
}

/** What a request needs: `read` for reads, `write` to register, `admin` for the rest. */
export type Access = RegistryRole;

/** True when `role` may do what `access` names. */
export function allows(role: RegistryRole, access: Access): boolean {
  return registryRoles.indexOf(role) >= registryRoles.indexOf(access);
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Checks an Authorization header against the users: the user's name and role when it names a
 * user with the right password, else undefined. Refuses (WK_OPTIONS_INVALID) a user list that
 * cannot work: none, a name twice, a name with a colon, an empty password, an unknown role.
 */
export function basicAuthenticator(
  users: readonly RegistryUser[],
): (authorization: string | undefined) => { username: string; role: RegistryRole } | undefined {
  const invalid = (why: string) =>
    new WirekitError('WK_OPTIONS_INVALID', `the registry's auth.users: ${why}`);
  if (!Array.isArray(users) || users.length === 0) throw invalid('at least one user is needed');
  const known = new Map<string, { digest: Buffer; role: RegistryRole }>();
  for (const [index, user] of users.entries()) {
    const { username, password, role } = user ?? ({} as RegistryUser);
    if (typeof username !== 'string' || username === '' || username.includes(':')) {
      throw invalid(`user ${index + 1} needs a name without ":"`);
    }
    if (known.has(username)) throw invalid(`the name ${JSON.stringify(username)} is given twice`);
    if (typeof password !== 'string' || password === '') {
      throw invalid(`user ${JSON.stringify(username)} needs a password`);
    }
    if (!registryRoles.includes(role)) {
      throw invalid(
        `user ${JSON.stringify(username)} has role ${JSON.stringify(role)}, not one of ${registryRoles.join(', ')}`,
      );
    }
    known.set(username, { digest: digest(password), role });
  }
  // Compared against when the user is unknown, so that case costs what a wrong password costs.
  const nobody = digest(randomBytes(32).toString('base64'));

  return (authorization) => {
    const match = /^basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(authorization ?? '');
    if (match === null) return undefined;
    const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) return undefined;
    const username = decoded.slice(0, colon);
    const user = known.get(username);
    const same = timingSafeEqual(digest(decoded.slice(colon + 1)), user?.digest ?? nobody);
    return same && user !== undefined ? { username, role: user.role } : undefined;
  };
}
