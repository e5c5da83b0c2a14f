import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimTxtValue } from '../../src/domain/domains/domain-check';
import type { DnsRecords } from '../support/dns-server';
import { ApiClient, expectAnswer, expectError } from '../support/api-client';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack, type TestKit, type Tenant } from '../support/fixture';

// The budgets of custom domains (docs/custom-domains.md, "Limits"): the daily verification
// ledger per owning user, which deleting a domain does not lower, and the DNS check budgets
// of claims and "Verify now".

const TARGET = 'pages.formward.test';
const TARGET_ADDRESS = '93.184.216.34';

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer({ [TARGET]: { A: [TARGET_ADDRESS] } });
});
afterAll(async () => {
  await dns?.close();
});

/** Publishes the records that verify each domain for its account. */
function publish(kit: TestKit, entries: [domain: string, accountId: string][]) {
  const records: DnsRecords = { [TARGET]: { A: [TARGET_ADDRESS] } };
  for (const [domain, accountId] of entries) {
    records[domain] = { CNAME: TARGET };
    records[`_formward.${domain}`] = {
      TXT: [[claimTxtValue(kit.stack.ctx.appSecret, accountId, domain)]],
    };
  }
  dns.setRecords(records);
}

const claim = async (api: ApiClient, domain: string) =>
  expectAnswer(await api.post('/api/domains', { domain }), 'POST /api/domains', 201).domain;
const verified = async (api: ApiClient, domain: string) =>
  expectAnswer(
    await api.post(`/api/domains/${domain}/verify`),
    'POST /api/domains/{domain}/verify',
    200,
  ).domain;

describe('DOMAIN_VERIFICATIONS_PER_DAY (10) per owning user', () => {
  const t = useTestStack(() => ({
    env: { DNS_SERVERS: dns.address, FORM_PAGES_TARGET: TARGET },
  }));
  const names = Array.from({ length: 11 }, (_, i) => `d${i}.ledger.test`);

  it('the 11th verification of a day is refused, though the other 10 were deleted', async () => {
    publish(
      t,
      names.map((name) => [name, t.accountId]),
    );
    for (const name of names.slice(0, 10)) {
      await claim(t.api, name);
      expect((await verified(t.api, name)).verified).toBe(true);
      expect((await t.api.delete(`/api/domains/${name}`)).status).toBe(200);
    }
    await claim(t.api, names[10]!);
    const refused = await t.api.post(`/api/domains/${names[10]}/verify`);
    const error = expectError(refused, 429, 'rate_limited');
    expect(error.message).toContain('DOMAIN_VERIFICATIONS_PER_DAY allows at most 10');
    expect(error.message).toContain('deleting a domain does not give one back');
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(23 * 3600);
    expect(wait).toBeLessThanOrEqual(24 * 3600);
    // The claim stays as it was: not verified, not serving.
    const after = await t.api.get(`/api/domains/${names[10]}`);
    expect(expectAnswer(after, 'GET /api/domains/{domain}', 200).domain).toMatchObject({
      status: 'pending',
      verified_at: null,
    });
  });

  it('counts rows no deletion touches', async () => {
    const rows = await t.stack.sql<{ total: number }>(
      'select count(*)::int as total from domain_verifications where account_id = ?',
      [t.accountId],
    );
    expect(rows[0]!.total).toBe(10);
    expect(
      await t.stack.sql('select domain from domains where account_id = ?', [t.accountId]),
    ).toEqual([{ domain: names[10] }]);
  });

  it('checking a verified domain again is no new verification', async () => {
    await t.stack.sql('delete from domain_verifications where domain = ?', [names[0]]);
    await claim(t.api, 'kept.ledger.test');
    publish(t, [['kept.ledger.test', t.accountId]]);
    expect((await verified(t.api, 'kept.ledger.test')).verified).toBe(true);
    // The ledger is full again; the kept domain still checks (and stays verified).
    expect((await verified(t.api, 'kept.ledger.test')).verified).toBe(true);
  });

  it('another user has a budget of their own', async () => {
    const other: Tenant = await t.newTenant();
    publish(t, [['theirs.ledger.test', other.accountId]]);
    await claim(other.api, 'theirs.ledger.test');
    expect((await verified(other.api, 'theirs.ledger.test')).verified).toBe(true);
  });

  it("a second account of the same owner shares the owner's budget", async () => {
    const second = await t.stack.sql<{ id: string }>(
      `insert into accounts (name) values ('Second') returning id::text as id`,
    );
    const accountId = second[0]!.id;
    await t.stack.sql(
      `insert into memberships (account_id, user_id, role)
         select ?, user_id, 'owner' from memberships where account_id = ? and role = 'owner'`,
      [accountId, t.accountId],
    );
    const key = await t.stack.createKey(accountId, 'admin');
    const api = new ApiClient(t.stack.url, { key });
    publish(t, [['second.ledger.test', accountId]]);
    await claim(api, 'second.ledger.test');
    expectError(await api.post('/api/domains/second.ledger.test/verify'), 429, 'rate_limited');
  });
});

describe('DNS_CHECK_RATE_ACCOUNT per owning user a minute', () => {
  const t = useTestStack(() => ({
    env: { DNS_SERVERS: dns.address, FORM_PAGES_TARGET: TARGET, DNS_CHECK_RATE_ACCOUNT: '3' },
  }));

  it('"Verify now" past it: 429 rate_limited with Retry-After; another account is not held up', async () => {
    await claim(t.api, 'budget.checks.test');
    for (let i = 0; i < 3; i++) await verified(t.api, 'budget.checks.test');
    const refused = await t.api.post('/api/domains/budget.checks.test/verify');
    expect(expectError(refused, 429, 'rate_limited').message).toContain('DNS_CHECK_RATE_ACCOUNT');
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    const other = await t.newTenant();
    await claim(other.api, 'other.checks.test');
    await verified(other.api, 'other.checks.test');
  });

  it('a claim that looks at the DNS (a takeover) counts too', async () => {
    const squatter = await t.newTenant();
    const owner = await t.newTenant();
    await claim(squatter.api, 'held.checks.test');
    for (let i = 0; i < 3; i++)
      expectError(
        await owner.api.post('/api/domains', { domain: 'held.checks.test' }),
        409,
        'domain_taken',
      );
    expectError(
      await owner.api.post('/api/domains', { domain: 'held.checks.test' }),
      429,
      'rate_limited',
    );
  });
});
