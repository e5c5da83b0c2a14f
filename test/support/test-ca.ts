import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type TestCertificates = {
  /** The CA that signs the receiver's certificate; given to Node as NODE_EXTRA_CA_CERTS. */
  caCertFile: string;
  keyFile: string;
  certFile: string;
};

/** Host names and addresses the test receiver's certificate is valid for. */
export const RECEIVER_NAMES = ['localhost', 'hooks.formward.test'];

const openssl = (args: string[], cwd: string) =>
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });

/**
 * A throw-away certificate authority and a server certificate for 127.0.0.1 and the test
 * names, made with the openssl CLI, so webhooks are delivered over real, verified TLS.
 */
export function createTestCertificates(dir: string): TestCertificates {
  fs.mkdirSync(dir, { recursive: true });
  const sans = ['IP:127.0.0.1', ...RECEIVER_NAMES.map((name) => `DNS:${name}`)].join(',');
  openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=Formward test CA']
      .concat([
        '-keyout',
        'ca.key',
        '-out',
        'ca.crt',
        '-addext',
        'basicConstraints=critical,CA:TRUE',
      ])
      .concat(['-addext', 'keyUsage=critical,keyCertSign,cRLSign']),
    dir,
  );
  openssl(
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      'server.key',
    ].concat(['-out', 'server.csr']),
    dir,
  );
  fs.writeFileSync(
    path.join(dir, 'server.ext'),
    `subjectAltName=${sans}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`,
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
