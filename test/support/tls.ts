/**
 * Certificates for tests of TLS servers, made with the openssl program (Debian's `openssl`): a
 * throwaway certificate authority, a server certificate it signed for 127.0.0.1 and localhost,
 * and a client certificate it signed, each PEM in a file of `dir` and in memory.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasCommand } from './tools.js';

export interface TestCertificates {
  readonly dir: string;
  /** Paths of the PEM files. */
  readonly files: { ca: string; cert: string; key: string; clientCert: string; clientKey: string };
  readonly ca: Buffer;
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly clientCert: Buffer;
  readonly clientKey: Buffer;
}

/** True when openssl runs (a loud skip without it; a failure under CI). */
export const hasOpenssl = () => hasCommand('openssl', ['version']);

function openssl(dir: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** An EC key and a certificate for `subject` signed by the CA in `dir`, with `extensions`. */
function signed(dir: string, name: string, subject: string, extensions: string): void {
  openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}-key.pem`]);
  openssl(dir, ['req', '-new', '-key', `${name}-key.pem`, '-subj', subject, '-out', `${name}.csr`]);
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, `${extensions}\n`);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca-key.pem',
    '-CAcreateserial',
    '-days',
    '2',
    '-sha256',
    '-extfile',
    ext,
    '-out',
    `${name}.pem`,
  ]);
}

export function makeCertificates(dir: string): TestCertificates {
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'ca-key.pem',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=wirekit test CA',
  ]);
  signed(
    dir,
    'server',
    '/CN=localhost',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth',
  );
  signed(dir, 'client', '/CN=wirekit test client', 'extendedKeyUsage=clientAuth');
  const files = {
    ca: join(dir, 'ca.pem'),
    cert: join(dir, 'server.pem'),
    key: join(dir, 'server-key.pem'),
    clientCert: join(dir, 'client.pem'),
    clientKey: join(dir, 'client-key.pem'),
  };
  return {
    dir,
    files,
    ca: readFileSync(files.ca),
    cert: readFileSync(files.cert),
    key: readFileSync(files.key),
    clientCert: readFileSync(files.clientCert),
    clientKey: readFileSync(files.clientKey),
  };
}
