/**
 * The registry's base URL as `registryClient` takes it: http or https, a path prefix kept, no
 * query, and credentials (`user:pass@`) taken out of it into a Basic Authorization header, so the
 * URL the client keeps and shows never holds a password.
 */
import { WirekitError } from '../../../errors/index.js';

/** RFC 7617: `user:password` in UTF-8, base64; a user name cannot hold the colon that ends it. */
export function basicAuthorization(credentials: { username: string; password: string }): string {
  const { username, password } = credentials;
  if (typeof username !== 'string' || typeof password !== 'string' || username.includes(':')) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      'basicAuth takes a username (without ":") and a password, both strings.',
    );
  }
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

export function parseBaseUrl(text: string): { baseUrl: string; authorization: string | undefined } {
  let url: URL;
  try {
    url = new URL(text);
  } catch (cause) {
    throw new WirekitError('WK_REGISTRY_REQUEST', `registry URL ${JSON.stringify(text)} is not a URL.`, {
      cause,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WirekitError('WK_REGISTRY_REQUEST', `registry URL ${url.protocol}// is not http or https.`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new WirekitError('WK_REGISTRY_REQUEST', 'a registry URL takes no query or fragment.');
  }
  let authorization: string | undefined;
  if (url.username !== '' || url.password !== '') {
    let user: string;
    let password: string;
    try {
      user = decodeURIComponent(url.username);
      password = decodeURIComponent(url.password);
    } catch (cause) {
      throw new WirekitError(
        'WK_REGISTRY_REQUEST',
        'the registry URL has a malformed percent escape in its credentials.',
        {
          cause,
        },
      );
    }
    authorization = basicAuthorization({ username: user, password });
    url.username = '';
    url.password = '';
  }
  return { baseUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, authorization };
}
