import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimTxtValue } from '../../src/domain/domains/domain-check';
import { MAX_DOMAINS_PER_ACCOUNT } from '../../src/domain/domains/domains';
import {
  expectAnswer,
  expectError,
  expectValidationError,
  type ApiResponse,
} from '../support/api-client';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack, type Tenant } from '../support/fixture';

const TARGET = 'pages.formward.test';
const TARGET_ADDRESS = '93.184.216.34';

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer({ [TARGET]: { A: [TARGET_ADDRESS] } });
});
afterAll(async () => {
  await dns?.close();
});

const t = useTestStack(() => ({
  env: { DNS_SERVERS: dns.address, FORM_PAGES_TARGET: TARGET },
}));
let other: Tenant;
beforeAll(async () => {
  other = await t.newTenant();
});

const claimOf = (res: ApiResponse) => expectAnswer(res, 'POST /api/domains', 201).domain;
const verifyOf = (res: ApiResponse) =>
  expectAnswer(res, 'POST /api/domains/{domain}/verify', 200).domain;
const valueOf = (accountId: string, domain: string) =>
  claimTxtValue(t.stack.ctx.appSecret, accountId, domain);

/** The records that verify `domain` for `accountId` (default: the kit's account). */
function pointAt(domain: string, accountId = t.accountId) {
  return {
    [domain]: { CNAME: TARGET },
    [`_formward.${domain}`]: { TXT: [[valueOf(accountId, domain)]] },
  };
}

describe('POST /api/domains', () => {
  it('claims a domain: 201, not verified, with the TXT and CNAME to add', async () => {
    const res = await t.api.post('/api/domains', { domain: 'Forms.Claim.TEST.' });
    const domain = claimOf(res);
    expect(domain).toMatchObject({
      domain: 'forms.claim.test',
      verified: false,
      status: 'pending',
      serving: false,
      forms: 0,
      verified_at: null,
    });
    expect(domain.records).toEqual([
      {
        type: 'TXT',
        name: '_formward.forms.claim.test',
        value: valueOf(t.accountId, 'forms.claim.test'),
        present: null,
      },
      { type: 'CNAME', name: 'forms.claim.test', value: TARGET, present: null },
    ]);
    expect(res.headers.get('location')).toBe(`${t.stack.url}/api/domains/forms.claim.test`);
  });

  it('claiming it again from the same account answers 200 with the claim', async () => {
    const res = await t.api.post('/api/domains', { domain: 'forms.claim.test' });
    expect(expectAnswer(res, 'POST /api/domains', 200).domain.domain).toBe('forms.claim.test');
  });

  it('another account gets 409 domain_taken, naming nobody', async () => {
    const res = await other.api.post('/api/domains', { domain: 'forms.claim.test' });
    const error = expectError(res, 409, 'domain_taken');
    // It says what would prove control, with the claimant's own value, never the holder's.
    expect(error.message).toContain('another account holds forms.claim.test');
    expect(error.message).toContain(valueOf(other.accountId, 'forms.claim.test'));
    expect(error.message).not.toContain(valueOf(t.accountId, 'forms.claim.test'));
    expect(res.text).not.toContain(t.email);
    expect(Object.keys(error).sort()).toEqual(['error', 'links', 'message', 'ok']);
  });

  it.each(['https://forms.example.com', 'localhost', 'printer.internal', '127.0.0.1', ''])(
    'refuses %j with 422',
    async (domain) => {
      expectValidationError(await t.api.post('/api/domains', { domain }), 'domain');
    },
  );

  it("refuses the service's own hosts", async () => {
    expectValidationError(await t.api.post('/api/domains', { domain: TARGET }), 'domain');
  });

  it('needs can_create_forms', async () => {
    const readonly = await t.clientFor('readonly');
    expectError(await readonly.post('/api/domains', { domain: 'ro.claim.test' }), 403, 'forbidden');
  });

  it(`an account has at most ${MAX_DOMAINS_PER_ACCOUNT} domains`, async () => {
    const crowded = await t.newTenant();
    for (let i = 0; i < MAX_DOMAINS_PER_ACCOUNT; i++)
      claimOf(await crowded.api.post('/api/domains', { domain: `d${i}.crowded.test` }));
    const res = await crowded.api.post('/api/domains', { domain: 'one-more.crowded.test' });
    expect(expectError(res, 409, 'limit_reached').message).toContain(
      String(MAX_DOMAINS_PER_ACCOUNT),
    );
  });
});

describe('GET /api/domains and /api/domains/{domain}', () => {
  it("lists the account's domains only", async () => {
    claimOf(await other.api.post('/api/domains', { domain: 'theirs.claim.test' }));
    const list = expectAnswer(await t.api.get('/api/domains'), 'GET /api/domains', 200);
    const names = list.domains.map((d) => d.domain);
    expect(names).toContain('forms.claim.test');
    expect(names).not.toContain('theirs.claim.test');
  });

  it("reads one; another account's is 404", async () => {
    const res = await t.api.get('/api/domains/forms.claim.test');
    expect(expectAnswer(res, 'GET /api/domains/{domain}', 200).domain.domain).toBe(
      'forms.claim.test',
    );
    expectError(await t.api.get('/api/domains/theirs.claim.test'), 404, 'not_found');
  });
});

describe('POST /api/domains/{domain}/verify', () => {
  it('without records: not verified, each record missing, and what to add', async () => {
    claimOf(await t.api.post('/api/domains', { domain: 'flow.claim.test' }));
    const domain = verifyOf(await t.api.post('/api/domains/flow.claim.test/verify'));
    expect(domain).toMatchObject({ verified: false, status: 'pending', serving: false });
    expect(domain.records.map((r) => r.present)).toEqual([false, false]);
    expect(domain.check?.missing).toHaveLength(2);
    expect(domain.last_checked_at).not.toBeNull();
    expect(domain.last_error).toContain('_formward.flow.claim.test');
  });

  it('with the CNAME only: the CNAME present, the TXT missing', async () => {
    dns.setRecords({ [TARGET]: { A: [TARGET_ADDRESS] }, 'flow.claim.test': { CNAME: TARGET } });
    const domain = verifyOf(await t.api.post('/api/domains/flow.claim.test/verify'));
    expect(domain.verified).toBe(false);
    expect(domain.records.map((r) => [r.type, r.present])).toEqual([
      ['TXT', false],
      ['CNAME', true],
    ]);
  });

  it("another account's TXT value does not verify the claim", async () => {
    dns.setRecords({
      [TARGET]: { A: [TARGET_ADDRESS] },
      ...pointAt('flow.claim.test', other.accountId),
    });
    const domain = verifyOf(await t.api.post('/api/domains/flow.claim.test/verify'));
    expect(domain.verified).toBe(false);
    // A TXT record is there, not the right one; what it holds is never shown.
    expect(domain.check?.records.txt).toMatchObject({ present: true, ok: false });
    expect(JSON.stringify(domain)).not.toContain(valueOf(other.accountId, 'flow.claim.test'));
  });

  it("with the account's TXT and the CNAME: verified and serving", async () => {
    dns.setRecords({ [TARGET]: { A: [TARGET_ADDRESS] }, ...pointAt('flow.claim.test') });
    const domain = verifyOf(await t.api.post('/api/domains/flow.claim.test/verify'));
    expect(domain).toMatchObject({
      verified: true,
      status: 'verified',
      serving: true,
      last_error: null,
      failing_since: null,
    });
    expect(domain.records.map((r) => r.present)).toEqual([true, true]);
    expect(domain.verified_at).not.toBeNull();
  });

  it("another account's domain is 404", async () => {
    expectError(await other.api.post('/api/domains/flow.claim.test/verify'), 404, 'not_found');
  });
});

describe('a claim held by another account', () => {
  it('moves to the account whose records the DNS shows: a squatter cannot lock the owner out', async () => {
    // The squatter claims and even verifies while it controls the records, and puts a form there.
    dns.setRecords({
      [TARGET]: { A: [TARGET_ADDRESS] },
      ...pointAt('moved.claim.test', other.accountId),
    });
    claimOf(await other.api.post('/api/domains', { domain: 'moved.claim.test' }));
    expect(verifyOf(await other.api.post('/api/domains/moved.claim.test/verify')).verified).toBe(
      true,
    );
    const theirForm = await other.api.createForm({ name: 'Theirs' });
    const placed = await other.api.patch(`/api/forms/${theirForm.id}`, {
      domain: 'moved.claim.test',
      slug: 'contact',
    });
    expect(placed.status, placed.text).toBe(200);

    // While the DNS shows the squatter's value, the owner is refused and told what to add.
    expectError(
      await t.api.post('/api/domains', { domain: 'moved.claim.test' }),
      409,
      'domain_taken',
    );

    // The owner publishes its own records: the claim moves, verified, and the squatter's form loses it.
    dns.setRecords({ [TARGET]: { A: [TARGET_ADDRESS] }, ...pointAt('moved.claim.test') });
    const moved = claimOf(await t.api.post('/api/domains', { domain: 'moved.claim.test' }));
    expect(moved).toMatchObject({ verified: true, serving: true });
    expectError(await other.api.get('/api/domains/moved.claim.test'), 404, 'not_found');
    const after = expectAnswer(
      await other.api.get(`/api/forms/${theirForm.id}`),
      'GET /api/forms/{id}',
      200,
    );
    expect([after.form.domain, after.form.slug]).toEqual([null, null]);
    const audit = await t.stack.sql<{ summary: string }>(
      "select summary from audit_events where account_id = ? and action = 'domain.created' order by id desc limit 1",
      [t.accountId],
    );
    expect(audit[0]?.summary).toMatch(/taken over from another account/);
  });
});

describe("a form's domain and slug (PATCH /api/forms/{id})", () => {
  let formId: string;
  const patch = (body: unknown, client = t.api, id = formId) =>
    client.patch(`/api/forms/${id}`, body);
  beforeAll(async () => {
    formId = (await t.api.createForm({ name: 'Contact' })).id;
    claimOf(await t.api.post('/api/domains', { domain: 'pending.claim.test' }));
    claimOf(await other.api.post('/api/domains', { domain: 'verified-theirs.claim.test' }));
    dns.setRecords({
      [TARGET]: { A: [TARGET_ADDRESS] },
      ...pointAt('flow.claim.test'),
      ...pointAt('verified-theirs.claim.test', other.accountId),
    });
    verifyOf(await other.api.post('/api/domains/verified-theirs.claim.test/verify'));
  });

  it('new forms have neither', async () => {
    const res = await t.api.get(`/api/forms/${formId}`);
    expect(expectAnswer(res, 'GET /api/forms/{id}', 200).form).toMatchObject({
      domain: null,
      slug: null,
    });
  });

  it('an unverified domain of the account → 422', async () => {
    expectValidationError(await patch({ domain: 'pending.claim.test' }), 'domain');
  });

  it("another account's verified domain → 422, as unknown", async () => {
    const res = await patch({ domain: 'verified-theirs.claim.test' });
    expectValidationError(res, 'domain');
    expect(res.text).toContain('is not a domain of this account');
  });

  it.each(['Contact', 'has space', 'a/b', '', 'x'.repeat(65)])('slug %j → 422', async (slug) => {
    expectValidationError(await patch({ slug }), 'slug');
  });

  it('a verified domain and a slug are set and shown', async () => {
    const res = await patch({ domain: 'Flow.Claim.Test', slug: 'contact-us' });
    expect(expectAnswer(res, 'PATCH /api/forms/{id}', 200).form).toMatchObject({
      domain: 'flow.claim.test',
      slug: 'contact-us',
      custom_page_url: null, // no page yet
    });
    const withPage = await patch({
      fields: [{ name: 'email', label: 'E-mail', type: 'email', required: true }],
      page: { title: 'Contact us' },
    });
    expect(expectAnswer(withPage, 'PATCH /api/forms/{id}', 200).form).toMatchObject({
      custom_page_url: 'https://flow.claim.test/contact-us',
      page_url: expect.stringMatching(/\/f\/[A-Za-z0-9_-]+$/),
    });
    const domain = await t.api.get('/api/domains/flow.claim.test');
    expect(expectAnswer(domain, 'GET /api/domains/{domain}', 200).domain.forms).toBe(1);
  });

  it('a slug another form of the domain has → 409 slug_taken', async () => {
    const second = (await t.api.createForm({ name: 'Second' })).id;
    expectError(
      await patch({ domain: 'flow.claim.test', slug: 'contact-us' }, t.api, second),
      409,
      'slug_taken',
    );
    // The same slug without the domain, or on no domain, is no clash.
    expect((await patch({ slug: 'contact-us' }, t.api, second)).status).toBe(200);
  });

  it('deleting the domain clears it (and the slug) from its forms', async () => {
    const res = await t.api.delete('/api/domains/flow.claim.test');
    expect(expectAnswer(res, 'DELETE /api/domains/{domain}', 200).forms_cleared).toBe(1);
    const form = await t.api.get(`/api/forms/${formId}`);
    expect(expectAnswer(form, 'GET /api/forms/{id}', 200).form).toMatchObject({
      domain: null,
      slug: null,
    });
    expectError(await t.api.get('/api/domains/flow.claim.test'), 404, 'not_found');
    // Released: another account may claim it now.
    claimOf(await other.api.post('/api/domains', { domain: 'flow.claim.test' }));
  });
});
