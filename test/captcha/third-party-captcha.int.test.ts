import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAnswer, expectError, type FormView } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { contactFields, postForm, postJson } from '../support/ingest-requests';
import { countSubmissions, onlySubmission } from '../support/stored-submissions';

// Turnstile, hCaptcha and reCAPTCHA on forms (docs/captcha.md) against a siteverify-shaped
// HTTPS server of the test's own (CAPTCHA_VERIFY_URL_*), reached through the guarded connector
// (WEBHOOK_ALLOW_PRIVATE lets it dial 127.0.0.1). The server decides by the response token:
// `pass`, `refuse`, `slow` (answers after the 5 s deadline), `score-0.2` / `score-0.9` (for
// the action `submit`, as our v3 widget executes), `score-0.9-action-<name>` and
// `score-0.9-noaction`, and `host-<hostname>` (solved on that page).

const SECRET = 'turnstile-secret-0123456789';
let siteverify: HttpsReceiver;
let closedPortUrl: string;

beforeAll(async () => {
  siteverify = await startHttpsReceiver(inject('stack').certificates, (request) => {
    const token = new URLSearchParams(request.body).get('response') ?? '';
    if (token === 'slow') return { status: 200, body: '{"success":true}', delayMs: 8_000 };
    if (token === 'refuse')
      return { status: 200, body: '{"success":false,"error-codes":["invalid-input-response"]}' };
    const host = /^host-(.+)$/.exec(token)?.[1];
    if (host) return { status: 200, body: JSON.stringify({ success: true, hostname: host }) };
    const scored = /^score-([\d.]+)(?:-action-(.+)|-(noaction))?$/.exec(token);
    if (scored) {
      const action = scored[3] ? {} : { action: scored[2] ?? 'submit' };
      return {
        status: 200,
        body: JSON.stringify({ success: true, score: Number(scored[1]), ...action }),
      };
    }
    return { status: 200, body: JSON.stringify({ success: token === 'pass' }) };
  });
  // A port nothing listens on: the provider is unreachable.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  closedPortUrl = `https://127.0.0.1:${port}/siteverify`;
});
afterAll(() => siteverify?.close());

const t = useTestStack(() => ({
  worker: true,
  env: {
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    CAPTCHA_VERIFY_URL_TURNSTILE: `${siteverify.url}/turnstile/siteverify`,
    CAPTCHA_VERIFY_URL_RECAPTCHA: `${siteverify.url}/recaptcha/siteverify`,
    CAPTCHA_VERIFY_URL_HCAPTCHA: closedPortUrl,
  },
}));

async function formWith(captcha: unknown): Promise<FormView> {
  const form = await t.api.createForm({ name: 'Protected' });
  const res = await t.api.patch(`/api/forms/${form.id}`, { captcha });
  return expectAnswer(res, 'PATCH /api/forms/{id}', 200).form;
}

const turnstile = { provider: 'turnstile', site_key: '0x4AAAAAAAtestsitekey', secret: SECRET };
const received = (path: string) =>
  siteverify.received
    .filter((r) => r.path === path)
    .map((r) => Object.fromEntries(new URLSearchParams(r.body)));

describe('a form with a third-party captcha', () => {
  it('shows provider, site key and secret_set, never the secret; embeds the widget', async () => {
    const form = await formWith(turnstile);
    expect(form.captcha).toEqual({
      provider: 'turnstile',
      site_key: '0x4AAAAAAAtestsitekey',
      secret_set: true,
    });
    expect(form.embed_html).toContain(
      '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>',
    );
    expect(form.embed_html).toContain(
      '<div class="cf-turnstile" data-sitekey="0x4AAAAAAAtestsitekey"></div>',
    );
    for (const res of [
      await t.api.get(`/api/forms/${form.id}`),
      await t.api.get('/api/forms'),
      await t.readonly.get(`/api/forms/${form.id}`),
    ]) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(SECRET);
    }
    const [row] = await t.stack.sql<{ captcha: string }>(
      'select captcha::text as captcha from forms where id = ?',
      [form.id],
    );
    expect(row!.captcha).toContain('"sealedSecret": "v1:');
    expect(row!.captcha).not.toContain(SECRET);
    // The form script carries the widget too, for a form pasted without it.
    const script = await t.http.get(form.autocomplete_script_url);
    expect(script.text).toContain('cf-turnstile');
    expect(script.text).not.toContain(SECRET);
  });

  it('keeps the secret when the same provider changes its site key; a new provider needs one', async () => {
    const form = await formWith(turnstile);
    const changed = await t.api.patch(`/api/forms/${form.id}`, {
      captcha: { provider: 'turnstile', site_key: 'new-site-key' },
    });
    expect(expectAnswer(changed, 'PATCH /api/forms/{id}', 200).form.captcha).toEqual({
      provider: 'turnstile',
      site_key: 'new-site-key',
      secret_set: true,
    });
    const res = await postJson(form.json_url, {
      ...contactFields,
      'cf-turnstile-response': 'pass',
    });
    expect(res.status, res.text).toBe(200);
    expect(received('/turnstile/siteverify').at(-1)?.secret).toBe(SECRET);

    const switched = await t.api.patch(`/api/forms/${form.id}`, {
      captcha: { provider: 'hcaptcha', site_key: 'hc-site' },
    });
    const error = expectError(switched, 422, 'validation_failed');
    expect(error.errors).toEqual([expect.stringMatching(/^captcha\.secret: required/)]);
    const refused = await t.api.post('/api/forms', {
      name: 'No secret',
      captcha: { provider: 'recaptcha', site_key: 'rc' },
    });
    expectError(refused, 422, 'validation_failed');
    const unknown = await t.api.patch(`/api/forms/${form.id}`, {
      captcha: { provider: 'friendlycaptcha', site_key: 'x', secret: 'y' },
    });
    expectError(unknown, 422, 'validation_failed');
  });

  it('a passed check is stored without the widget field; the provider got secret, response and remoteip', async () => {
    const form = await formWith(turnstile);
    const before = received('/turnstile/siteverify').length;
    const res = await postForm(
      form.submission_url,
      { ...contactFields, 'cf-turnstile-response': 'pass' },
      { accept: 'application/json' },
    );
    expect(res.status, res.text).toBe(200);
    const stored = await onlySubmission(t.stack, form.id);
    expect(stored.payload_json).toEqual(contactFields);
    expect(stored.is_spam).toBe(false);
    const asked = received('/turnstile/siteverify').slice(before);
    expect(asked).toEqual([{ secret: SECRET, response: 'pass', remoteip: '127.0.0.1' }]);
    const request = siteverify.received.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('a missing or refused answer is 422 captcha_failed and stores nothing', async () => {
    const form = await formWith(turnstile);
    const missing = await postJson(form.json_url, contactFields);
    expect(expectError(missing, 422, 'captcha_failed').message).toMatch(/not completed/);
    const refused = await postJson(form.json_url, {
      ...contactFields,
      'cf-turnstile-response': 'refuse',
    });
    expect(expectError(refused, 422, 'captcha_failed').message).toMatch(/invalid-input-response/);
    // A browser on /f gets a page that says why and sends it back to the form.
    const page = await postForm(
      form.submission_url,
      { ...contactFields, 'cf-turnstile-response': 'refuse' },
      { accept: 'text/html', origin: 'https://customer.example' },
    );
    expect(page.status).toBe(422);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('access-control-allow-origin')).toBe('https://customer.example');
    expect(page.text).toContain('The CAPTCHA check did not pass');
    expect(page.text).toContain('Go back to the form');
    expect(page.text).toContain('Back button');
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
  });

  it(
    'a provider that does not answer within 5 s keeps the submission as spam captcha_unverified',
    { timeout: 30_000 },
    async () => {
      const form = await formWith(turnstile);
      const started = Date.now();
      const res = await postJson(form.json_url, {
        ...contactFields,
        'cf-turnstile-response': 'slow',
      });
      const took = Date.now() - started;
      expect(res.status, res.text).toBe(200); // looks like success: the submitter lost nothing
      expect(took).toBeGreaterThanOrEqual(4_500);
      expect(took).toBeLessThan(7_500);
      const stored = await onlySubmission(t.stack, form.id);
      expect(stored).toMatchObject({
        payload_json: contactFields,
        is_spam: true,
        spam_reason: 'captcha_unverified',
      });
    },
  );

  it('an unreachable provider keeps the submission as spam captcha_unverified', async () => {
    const form = await formWith({ provider: 'hcaptcha', site_key: 'hc-site', secret: 'hc-secret' });
    expect(form.embed_html).toContain('<div class="h-captcha" data-sitekey="hc-site"></div>');
    const res = await postForm(
      form.submission_url,
      // hCaptcha's widget fills both fields: neither is stored.
      { ...contactFields, 'h-captcha-response': 'pass', 'g-recaptcha-response': 'pass' },
      { accept: 'application/json' },
    );
    expect(res.status, res.text).toBe(200);
    const stored = await onlySubmission(t.stack, form.id);
    expect(stored).toMatchObject({
      payload_json: contactFields,
      is_spam: true,
      spam_reason: 'captcha_unverified',
    });
    const spam = await t.api.submissionIds(`/api/submissions/spam?form_id=${form.id}`);
    expect(spam).toEqual([stored.id]);
  });

  it('reCAPTCHA v3 refuses a score below min_score', async () => {
    const form = await formWith({
      provider: 'recaptcha',
      site_key: 'rc-site',
      secret: 'rc-secret',
      min_score: 0.5,
    });
    expect(form.captcha).toEqual({
      provider: 'recaptcha',
      site_key: 'rc-site',
      secret_set: true,
      min_score: 0.5,
    });
    expect(form.embed_html).toContain('https://www.google.com/recaptcha/api.js?render=rc-site');
    const low = await postJson(form.json_url, {
      ...contactFields,
      'g-recaptcha-response': 'score-0.2',
    });
    expect(expectError(low, 422, 'captcha_failed').message).toMatch(/score 0\.2 is below 0\.5/);
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
    const high = await postJson(form.json_url, {
      ...contactFields,
      'g-recaptcha-response': 'score-0.9',
    });
    expect(high.status, high.text).toBe(200);
    expect((await onlySubmission(t.stack, form.id)).payload_json).toEqual(contactFields);
    expect(received('/recaptcha/siteverify').at(-1)).toMatchObject({ secret: 'rc-secret' });
    // The widget executes the action `submit`; a token for another action, or none, is refused.
    expect(form.embed_html).toContain("{ action: 'submit' }");
    const script = await t.http.get(form.autocomplete_script_url);
    expect(script.text).toContain('{ action: "submit" }');
    const login = await postJson(form.json_url, {
      ...contactFields,
      'g-recaptcha-response': 'score-0.9-action-login',
    });
    expect(expectError(login, 422, 'captcha_failed').message).toMatch(/"login", not .*"submit"/);
    const none = await postJson(form.json_url, {
      ...contactFields,
      'g-recaptcha-response': 'score-0.9-noaction',
    });
    expect(expectError(none, 422, 'captcha_failed').message).toMatch(/no action/);
    expect(await countSubmissions(t.stack, form.id)).toBe(1);
  });

  it("with allowed_domains, the answer's hostname must be one of them, a subdomain, or the form's own host", async () => {
    const form = await formWith(turnstile);
    const patched = await t.api.patch(`/api/forms/${form.id}`, {
      allowed_domains: ['customer.example'],
    });
    expect(patched.status, patched.text).toBe(200);
    const post = (token: string) =>
      postJson(
        form.json_url,
        { ...contactFields, 'cf-turnstile-response': token },
        { origin: 'https://customer.example' },
      );
    const ingestHost = new URL(t.stack.url).hostname;
    for (const token of [
      'host-customer.example',
      'host-shop.customer.example',
      `host-${ingestHost}`,
    ]) {
      const res = await post(token);
      expect(res.status, `${token}: ${res.text}`).toBe(200);
    }
    const elsewhere = await post('host-attacker.example');
    expect(expectError(elsewhere, 422, 'captcha_failed').message).toMatch(
      /solved on attacker\.example, not on a site this form accepts/,
    );
    const lookalike = await post('host-notcustomer.example');
    expectError(lookalike, 422, 'captcha_failed');
    const nameless = await post('pass');
    expect(expectError(nameless, 422, 'captcha_failed').message).toMatch(/names no hostname/);
    expect(await countSubmissions(t.stack, form.id)).toBe(3);

    // Without allowed_domains, any page may solve it (the origin is not checked either).
    const open = await formWith(turnstile);
    const anywhere = await postJson(open.json_url, {
      ...contactFields,
      'cf-turnstile-response': 'host-attacker.example',
    });
    expect(anywhere.status, anywhere.text).toBe(200);
  });

  it("a ?test=true run by the owner's key needs no captcha; captcha null turns it off", async () => {
    const form = await formWith(turnstile);
    const anonymous = await postJson(`${form.json_url}?test=true`, contactFields);
    expectError(anonymous, 401, 'unauthorized');
    const test = await postJson(`${form.json_url}?test=true`, contactFields, {
      authorization: `Bearer ${t.adminKey}`,
    });
    expect(test.status, test.text).toBe(200);
    expect(await countSubmissions(t.stack, form.id)).toBe(1);

    const off = await t.api.patch(`/api/forms/${form.id}`, { captcha: null });
    const view = expectAnswer(off, 'PATCH /api/forms/{id}', 200).form;
    expect(view.captcha).toBeNull();
    expect(view.embed_html).not.toContain('turnstile');
    const plain = await postJson(form.json_url, contactFields);
    expect(plain.status, plain.text).toBe(200);
    expect(await countSubmissions(t.stack, form.id)).toBe(2);
  });
});
