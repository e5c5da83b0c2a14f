import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/embedded/free-port';
import { expectAnswer, request } from '../support/api-client';
import { startCaddy, DEPLOY_CADDYFILE, type Caddy } from '../support/caddy';
import { startChallTestSrv, type ChallTestSrv } from '../support/challtestsrv';
import { eventually } from '../support/eventually';
import { useTestStack } from '../support/fixture';
import { httpsVia, type HttpsViaOptions } from '../support/https-via';
import { withoutReceipt } from '../support/ingest-requests';
import { startPebble, type Pebble } from '../support/pebble';

/*
 * Automatic HTTPS for custom domains, for real (docs/custom-domains.md, "Automatic HTTPS"):
 * Caddy runs deploy/caddy/Caddyfile, as docker-compose.yml's `caddy` service does, in front of
 * a Formward stack, with Pebble (Let's Encrypt's test ACME server) as its CA. Pebble validates
 * each certificate request by connecting to Caddy's own ports (HTTP-01 or TLS-ALPN-01), and
 * pebble-challtestsrv is the DNS that both Formward (DNS_SERVERS) and Pebble resolve through.
 * Every server is on 127.0.0.1; each stops with the suite.
 */

const OWN_HOST = 'forms.formward.test'; // BASE_URL's host
const TARGET = 'pages.formward.test'; // FORM_PAGES_TARGET
const VERIFIED = 'contact.acme-widgets.test';
const UNVERIFIED = 'signup.other-corp.test';
const LOOPBACK = ['127.0.0.1'];

let dns: ChallTestSrv;
let pebble: Pebble;
let caddy: Caddy;
let caddyPorts: { http: number; https: number };
/** PEM of the root Pebble issues under: the only CA the HTTPS requests below trust. */
let pebbleRoot: string;

beforeAll(async () => {
  dns = await startChallTestSrv();
  for (const host of [OWN_HOST, TARGET]) await dns.addA(host, LOOPBACK);
  caddyPorts = { http: await freePort(), https: await freePort() };
  pebble = await startPebble({
    dnsServer: dns.dnsAddress,
    httpPort: caddyPorts.http,
    tlsPort: caddyPorts.https,
  });
  pebbleRoot = await pebble.issuingRoot();
});
afterAll(async () => {
  await pebble?.stop();
  await dns?.stop();
});

const t = useTestStack(() => ({
  env: {
    BASE_URL: `https://${OWN_HOST}`,
    DNS_SERVERS: dns.dnsAddress,
    FORM_PAGES_TARGET: TARGET,
    // The internal listener, where GET /tls/ask lives: a free port of 127.0.0.1.
    METRICS_PORT: '0',
  },
}));

/** The internal listener's URL for `path`. */
const internal = (path: string) => new URL(path, t.stack.metricsUrl!).toString();

beforeAll(async () => {
  caddy = await startCaddy({
    caddyfile: DEPLOY_CADDYFILE,
    env: {
      FORMWARD_SITES: `https://${OWN_HOST}`,
      FORMWARD_UPSTREAM: new URL(t.stack.url).host,
      FORMWARD_TLS_ASK: internal('/tls/ask'),
    },
    acme: { directoryUrl: pebble.directoryUrl, trustedRootsFile: pebble.listenerCaFile },
    httpPort: caddyPorts.http,
    httpsPort: caddyPorts.https,
  });
});
afterAll(async () => {
  await caddy?.stop();
});

/** An HTTPS request to `host` through Caddy; the certificate must chain to Pebble's root. */
const overHttps = (host: string, path: string, options: Omit<HttpsViaOptions, 'ca'> = {}) =>
  httpsVia(caddyPorts.https, host, path, { ca: pebbleRoot, ...options });

/** Claims `domain` for the suite's account and publishes its records in the DNS. */
async function claimAndPublish(domain: string) {
  const claimed = expectAnswer(
    await t.api.post('/api/domains', { domain }),
    'POST /api/domains',
    201,
  ).domain;
  expect(claimed.verified).toBe(false);
  const txt = claimed.records.find((record) => record.type === 'TXT')!;
  await dns.setTxt(txt.name, txt.value);
  // A records with the target's addresses (the CNAME's alternative): Pebble connects there.
  await dns.addA(domain, LOOPBACK);
  return claimed;
}

describe('Caddy with on-demand TLS in front of Formward', () => {
  let slug: string;

  beforeAll(async () => {
    await claimAndPublish(VERIFIED);
    const verified = expectAnswer(
      await t.api.post(`/api/domains/${VERIFIED}/verify`),
      'POST /api/domains/{domain}/verify',
      200,
    ).domain;
    expect(verified.verified, JSON.stringify(verified)).toBe(true);
    const form = await t.api.createForm({
      name: 'Contact',
      fields: [
        { name: 'email', label: 'E-mail', type: 'email', required: true },
        { name: 'message', label: 'Message', type: 'textarea', required: true },
      ],
      page: { title: 'Write to us' },
    });
    slug = 'contact';
    const patched = await t.api.patch(`/api/forms/${form.id}`, { domain: VERIFIED, slug });
    expect(expectAnswer(patched, 'PATCH /api/forms/{id}', 200).form).toMatchObject({
      domain: VERIFIED,
      slug,
    });
    // Caddy's ask says yes only 10 minutes after the verification: as if that was then.
    await t.stack.sql(
      `update domains set verified_at = now() - interval '11 minutes' where domain = ?`,
      [VERIFIED],
    );
    // Claimed, with its records published, but never verified.
    await claimAndPublish(UNVERIFIED);
  });

  it('gets a certificate from Pebble for a verified domain at its first TLS handshake', async () => {
    // The first request to the domain is the form page itself, posting to its own origin.
    const answer = await overHttps(VERIFIED, `/${slug}`, { headers: { accept: 'text/html' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toContain('<h1>Write to us</h1>');
    expect(answer.text).toMatch(new RegExp(`<form[^>]* action="/${slug}"`));
    expect(answer.certificate.subjectaltname).toBe(`DNS:${VERIFIED}`);
    expect(answer.certificate.issuer.CN).toMatch(/^Pebble Intermediate CA/);
  });

  it("takes a submission on the domain's form page and stays on the domain", async () => {
    const posted = await overHttps(VERIFIED, `/${slug}`, {
      method: 'POST',
      body: new URLSearchParams({ email: 'ada@example.com', message: 'Over HTTPS' }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: `https://${VERIFIED}`,
      },
    });
    expect(posted.status, posted.text).toBe(302);
    expect(withoutReceipt(posted.headers.location)).toBe(`/${slug}/thanks`);
    const stored = await t.api.get('/api/submissions?form_id=all');
    const submissions = expectAnswer(stored, 'GET /api/submissions', 200).submissions;
    expect(submissions.map((s) => s.payload_json)).toContainEqual(
      expect.objectContaining({ message: 'Over HTTPS' }),
    );
  });

  it('reaches only form pages on the custom domain: the API answers 404 there', async () => {
    const api = await overHttps(VERIFIED, '/api/forms', {
      headers: { authorization: `Bearer ${t.adminKey}` },
    });
    expect(api.status).toBe(404);
  });

  it('gets no certificate for a claimed but unverified domain: the handshake fails', async () => {
    await expect(overHttps(UNVERIFIED, `/${slug}`)).rejects.toThrow(/alert|handshake|socket/i);
    await expect(overHttps('unknown.formward.test', '/')).rejects.toThrow(
      /alert|handshake|socket/i,
    );
  });

  it("serves Formward's own host with the certificate obtained at start", async () => {
    const health = await eventually(
      async () => {
        const answer = await overHttps(OWN_HOST, '/healthz');
        return answer.status === 200 && answer;
      },
      { timeoutMs: 30_000, what: `HTTPS on ${OWN_HOST}\n${caddy.log().slice(-2_000)}` },
    );
    expect(health.certificate.subjectaltname).toBe(`DNS:${OWN_HOST}`);
  });

  it('answers the ask endpoint on the internal listener only', async () => {
    const ask = (domain: string) => `/tls/ask?domain=${encodeURIComponent(domain)}`;
    expect((await request('GET', internal(ask(VERIFIED)))).status).toBe(200);
    expect((await request('GET', internal(ask(UNVERIFIED)))).status).toBe(404);
    expect((await request('GET', internal(ask('unknown.formward.test')))).status).toBe(404);
    // Never on the public listener, so never through Caddy either.
    expect((await request('GET', `${t.stack.url}${ask(VERIFIED)}`)).status).toBe(404);
    expect((await overHttps(OWN_HOST, ask(VERIFIED))).status).toBe(404);
    expect((await overHttps(VERIFIED, ask(VERIFIED))).status).toBe(404);
  });
});
