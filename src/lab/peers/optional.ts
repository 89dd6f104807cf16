/**
 * Benchmark peers that wirekit-ts does not install. The lab can time them beside wirekit's codecs,
 * but an installed wirekit-ts has them only when the user added them, so loading one is a step that
 * may fail for a reason the user can fix: that failure says so, names the package and the folder the
 * lab looked from, instead of surfacing as a bare "Cannot find module".
 *
 * Peers are resolved as Node resolves any package: from the folder given (`--peers DIR`), else from
 * wirekit-ts's own folder, which finds a package installed beside wirekit-ts or in a project that
 * depends on it.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The optional peers by lab subject: the npm package, and the version wirekit's own tests run. */
export const optionalPeers = {
  fury: { package: '@furyjs/fury', version: '0.5.9-beta' },
} as const;

export type OptionalPeer = keyof typeof optionalPeers;

/** Where to resolve optional peers from; undefined means beside wirekit-ts itself. */
export interface PeerLocation {
  readonly from?: string;
}

/** A peer that is not installed where the lab looked: the case cannot run, and this says why. */
export class PeerUnavailableError extends Error {
  override readonly name = 'PeerUnavailableError';
}

/** Loads the package of an optional peer, or throws PeerUnavailableError when it is not installed. */
export function requirePeer(peer: OptionalPeer, location: PeerLocation = {}): unknown {
  const { package: name, version } = optionalPeers[peer];
  // A file inside the folder, which need not exist: resolution starts from its directory.
  const base =
    location.from === undefined ? import.meta.url : pathToFileURL(join(resolve(location.from), 'x.js'));
  const require = createRequire(base);
  let path: string;
  try {
    path = require.resolve(name);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw cause;
    const where = location.from === undefined ? 'beside wirekit-ts' : `from ${resolve(location.from)}`;
    throw new PeerUnavailableError(
      `${peer} needs ${name}, an optional peer that wirekit-ts does not install, and it is not ` +
        `installed where the lab looked (${where}). Install it (npm install ${name}@${version}) in ` +
        'the project that runs wirekit, or in any folder and pass that folder with --peers DIR.',
      { cause },
    );
  }
  // Found: an error from here on (a broken install, a missing dependency of the peer) is the
  // peer's own, and is reported with its message.
  return require(path);
}
