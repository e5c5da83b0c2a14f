import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/*
 * docker-compose.yml's `caddy` service (custom domains over HTTPS) against the rest of the
 * file: it runs deploy/caddy/Caddyfile, asks serve on serve's internal (metrics) port, proxies
 * to serve's public port, and is the Caddy release the tests build. `docker compose config`
 * in .ci/run checks the syntax; test/domains/caddy-https.int.test.ts runs the Caddyfile for real.
 */
const root = path.resolve(__dirname, '../..');
type Service = {
  image?: string;
  environment?: Record<string, string>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  depends_on?: string[] | Record<string, unknown>;
};
// Merge keys (<<) resolve to plain mappings.
const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), {
  merge: true,
}) as { services: Record<string, Service> };
const caddy = compose.services.caddy!;
const serve = compose.services.serve!;

describe('docker-compose.yml: caddy in front of serve', () => {
  it('runs the release the tests build, on ports 80 and 443', () => {
    const script = fs.readFileSync(path.join(root, 'scripts/caddy.sh'), 'utf8');
    const tested = /^VERSION=(\d+\.\d+)\./m.exec(script)?.[1];
    expect(caddy.image).toBe(`caddy:${tested}`);
    expect(caddy.ports).toEqual([
      '${HTTP_PORT:-80}:80',
      '${HTTPS_PORT:-443}:443',
      '${HTTPS_PORT:-443}:443/udp',
    ]);
    expect(caddy.volumes).toContain('./deploy/caddy/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(fs.existsSync(path.join(root, 'deploy/caddy/Caddyfile'))).toBe(true);
  });

  it("asks serve's internal listener, which is never published, and proxies to its public port", () => {
    const env = serve.environment!;
    expect(env.METRICS_HOST).toBe('0.0.0.0');
    expect(caddy.environment!.FORMWARD_TLS_ASK).toBe(`http://serve:${env.METRICS_PORT}/tls/ask`);
    expect(serve.expose).toEqual([env.METRICS_PORT]);
    // serve's own port is published on 127.0.0.1 only (unless SERVE_BIND says otherwise).
    expect(serve.ports).toEqual(['${SERVE_BIND:-127.0.0.1}::3000']);
    expect(caddy.environment!.FORMWARD_UPSTREAM).toBe('serve:3000');
    expect(caddy.environment!.FORMWARD_SITES).toBe('${CADDY_SITES:-${BASE_URL}}');
  });

  it('has serve trust the proxy on private addresses only, and name the custom-domain target', () => {
    const env = serve.environment!;
    expect(env.TRUST_PROXY).toBe('${TRUST_PROXY:-loopback,uniquelocal}');
    expect(env.FORM_PAGES_TARGET).toBe('${FORM_PAGES_TARGET:-}');
  });
});
