import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/embedded/free-port';
import { startLocalService, toolFromScript } from './local-service';
import { createTestCertificates } from './test-ca';

/**
 * Pebble, Let's Encrypt's test ACME server (scripts/pebble.sh), on 127.0.0.1. It resolves
 * the names it validates through `dnsServer` (pebble-challtestsrv) and connects to the address
 * found on `httpPort` (HTTP-01) and `tlsPort` (TLS-ALPN-01): the ports of the ACME client's
 * own listeners. Validation is real and immediate (PEBBLE_VA_NOSLEEP).
 */
export async function startPebble(options: {
  dnsServer: string;
  httpPort: number;
  tlsPort: number;
}) {
  const binary = toolFromScript('pebble.sh');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-pebble-'));
  // Pebble's own HTTPS listeners (directory and management) get a certificate from a
  // throw-away CA: ACME clients trust that CA to reach the directory.
  const listener = createTestCertificates(path.join(dir, 'listener'));
  const acmePort = await freePort();
  const managementPort = await freePort();
  const configFile = path.join(dir, 'pebble-config.json');
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: listener.certFile,
        privateKey: listener.keyFile,
        httpPort: options.httpPort,
        tlsPort: options.tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
        keyAlgorithm: 'ecdsa',
      },
    }),
  );
  let service;
  try {
    service = await startLocalService(
      'pebble',
      binary,
      ['-config', configFile, '-dnsserver', options.dnsServer],
      {
        ports: [acmePort, managementPort],
        // No random validation delay, and no nonce rejected on purpose: a short test.
        env: { PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
      },
    );
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const listenerCa = fs.readFileSync(listener.caCertFile, 'utf8');

  return {
    /** The ACME directory URL. */
    directoryUrl: `https://127.0.0.1:${acmePort}/dir`,
    /** PEM file of the CA of Pebble's own listeners (not of the certificates it issues). */
    listenerCaFile: listener.caCertFile,
    /** PEM of the root Pebble issues certificates under (made anew at each start). */
    issuingRoot: () => httpsText(`https://127.0.0.1:${managementPort}/roots/0`, listenerCa),
    log: service.log,
    async stop() {
      await service.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type Pebble = Awaited<ReturnType<typeof startPebble>>;

function httpsText(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(body)
            : reject(new Error(`${url} answered ${response.statusCode}: ${body}`)),
        );
      })
      .on('error', reject);
  });
}
