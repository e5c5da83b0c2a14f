import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/embedded/free-port';
import { startLocalService, toolFromScript } from './local-service';

/** The Caddyfile docker-compose.yml's `caddy` service runs. */
export const DEPLOY_CADDYFILE = path.resolve(__dirname, '../../deploy/caddy/Caddyfile');

export type CaddyOptions = {
  /** A Caddyfile, adapted to JSON by `caddy adapt` with `env` as its environment. */
  caddyfile: string;
  env: Record<string, string>;
  /** The ACME CA every certificate comes from, and the PEM file of the CA of its HTTPS listener. */
  acme: { directoryUrl: string; trustedRootsFile: string };
  httpPort?: number;
  httpsPort?: number;
};

type Server = { listen: string[] };
type CaddyJson = {
  admin?: unknown;
  storage?: unknown;
  apps: {
    http: { http_port?: number; https_port?: number; servers: Record<string, Server> };
    tls?: { automation?: { policies?: Array<Record<string, unknown>> } };
  };
};

/**
 * Caddy (scripts/caddy.sh) running a Caddyfile on 127.0.0.1: the Caddyfile is adapted as it
 * is, then only what a test machine needs differs: its HTTP and HTTPS ports, every listener
 * on 127.0.0.1, the ACME CA, storage in a temporary directory and no admin endpoint.
 */
export async function startCaddy(options: CaddyOptions) {
  const binary = toolFromScript('caddy.sh');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-caddy-'));
  const httpPort = options.httpPort ?? (await freePort());
  const httpsPort = options.httpsPort ?? (await freePort());
  const env = { ...options.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
  const adapted = execFileSync(
    binary,
    ['adapt', '--config', options.caddyfile, '--adapter', 'caddyfile'],
    {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const config = forLoopback(JSON.parse(adapted) as CaddyJson, {
    httpPort,
    httpsPort,
    storage: path.join(dir, 'storage'),
    acme: options.acme,
  });
  const configFile = path.join(dir, 'caddy.json');
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2));
  let service;
  try {
    service = await startLocalService('caddy', binary, ['run', '--config', configFile], {
      ports: [httpPort, httpsPort],
      env,
    });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    httpPort,
    httpsPort,
    /** The JSON configuration Caddy runs. */
    config,
    log: service.log,
    async stop() {
      await service.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type Caddy = Awaited<ReturnType<typeof startCaddy>>;

/** The adapted configuration with the test machine's ports, CA and storage. */
function forLoopback(
  config: CaddyJson,
  test: { httpPort: number; httpsPort: number; storage: string; acme: CaddyOptions['acme'] },
): CaddyJson {
  const http = config.apps.http;
  http.http_port = test.httpPort;
  http.https_port = test.httpsPort;
  const ports: Record<string, number> = { ':443': test.httpsPort, ':80': test.httpPort };
  for (const [name, server] of Object.entries(http.servers)) {
    server.listen = server.listen.map((address) => {
      if (!(address in ports)) throw new Error(`server ${name} listens on ${address}`);
      return `127.0.0.1:${ports[address]}`;
    });
  }
  // Automatic HTTPS adds its HTTP server (challenges and redirects) to a server on the HTTP
  // port: one on 127.0.0.1 keeps it off the other interfaces.
  if (
    !Object.values(http.servers).some((server) =>
      server.listen.some((a) => a.endsWith(`:${test.httpPort}`)),
    )
  ) {
    http.servers.loopback_http = { listen: [`127.0.0.1:${test.httpPort}`] };
  }
  const issuer = {
    module: 'acme',
    ca: test.acme.directoryUrl,
    trusted_roots_pem_files: [test.acme.trustedRootsFile],
  };
  for (const policy of config.apps.tls?.automation?.policies ?? []) policy.issuers = [issuer];
  return {
    ...config,
    admin: { disabled: true },
    storage: { module: 'file_system', root: test.storage },
  };
}
