import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type Certificates = {
  /** The CA that signs the receiver's certificate; given to formward as NODE_EXTRA_CA_CERTS. */
  caCertFile: string;
  keyFile: string;
  certFile: string;
};

const openssl = (args: string[], cwd: string) =>
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });

/**
 * A throw-away certificate authority and a server certificate for 127.0.0.1, made with the
 * openssl CLI (as test/support/test-ca.ts does), so deliveries go over real, verified TLS.
 */
export function createCertificates(dir: string): Certificates {
  fs.mkdirSync(dir, { recursive: true });
  openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2']
      .concat(['-subj', '/CN=Formward bench CA', '-keyout', 'ca.key', '-out', 'ca.crt'])
      .concat(['-addext', 'basicConstraints=critical,CA:TRUE'])
      .concat(['-addext', 'keyUsage=critical,keyCertSign,cRLSign']),
    dir,
  );
  openssl(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1'].concat([
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
    ]),
    dir,
  );
  fs.writeFileSync(
    path.join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n',
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
    ].concat(['-days', '2', '-out', 'server.crt', '-extfile', 'server.ext']),
    dir,
  );
  return {
    caCertFile: path.join(dir, 'ca.crt'),
    keyFile: path.join(dir, 'server.key'),
    certFile: path.join(dir, 'server.crt'),
  };
}
