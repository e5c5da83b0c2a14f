import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimCustomDomain,
  DomainNotClaimableError,
} from '../../../src/domain/domains/claim-custom-domain';
import { claimTxtValue } from '../../../src/domain/domains/domain-check';
import { DomainHeldError } from '../../../src/domain/domains/domain-takeover';
import { verifyDomainNow } from '../../../src/domain/domains/verify-domain-now';
import { startDnsServer, type DnsServer } from '../../support/dns-server';
import { useTestStack } from '../../support/fixture';
import { auditEntries, dashboardOf, freshEm } from './use-case-stack';

// src/domain/domains/claim-custom-domain.ts and verify-domain-now.ts called directly against
// the real database and a DNS server of the test's, and "Verify now" through the API and the
// dashboard recording the same entry.

const TARGET = 'pages.formward.test';
let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer({ [TARGET]: { A: ['93.184.216.34'] } });
});
afterAll(async () => {
  await dns?.close();
});

const t = useTestStack(() => ({ env: { DNS_SERVERS: dns.address, FORM_PAGES_TARGET: TARGET } }));

const OWN_HOSTS = ['127.0.0.1', TARGET];

/** The records that verify `domain` for `accountId`. */
const pointAt = (domain: string, accountId: string) => ({
  [TARGET]: { A: ['93.184.216.34'] },
  [domain]: { CNAME: TARGET },
  [`_formward.${domain}`]: {
    TXT: [[claimTxtValue(t.stack.ctx.appSecret, accountId, domain)]],
  },
});

const claim = (accountId: string, domain: string, em = freshEm(t)) =>
  claimCustomDomain(em, t.stack.ctx.domainChecks, {
    accountId,
    domain,
    ownHosts: OWN_HOSTS,
  });

const holderOf = async (domain: string) =>
  (
    await t.stack.sql<{ account_id: string }>(
      'select account_id::text from domains where domain = ?',
      [domain],
    )
  )[0]?.account_id;

describe('claimCustomDomain', () => {
  it('stores a claim once, and refuses this service’s own host', async () => {
    const first = await claim(t.accountId, 'Claim.Example.TEST.');
    expect(first).toMatchObject({ created: true, tookOver: false });
    expect(first.audit).toEqual({
      skip: false,
      targetId: 'claim.example.test',
      summary: 'claimed claim.example.test',
    });
    expect(await holderOf('claim.example.test')).toBe(String(t.accountId));
    expect((await claim(t.accountId, 'claim.example.test')).audit.skip).toBe(true);
    await expect(claim(t.accountId, TARGET)).rejects.toBeInstanceOf(DomainNotClaimableError);
  });

  it('moves another account’s claim only when the DNS shows this account’s records', async () => {
    const other = await t.newTenant();
    await claim(other.accountId, 'held.example.test');
    await expect(claim(t.accountId, 'held.example.test')).rejects.toBeInstanceOf(DomainHeldError);
    dns.setRecords(pointAt('held.example.test', t.accountId));
    const taken = await claim(t.accountId, 'held.example.test');
    expect(taken.audit.summary).toBe(
      'claimed held.example.test, taken over from another account by its DNS records',
    );
    expect(await holderOf('held.example.test')).toBe(String(t.accountId));
  });
});

describe('verifyDomainNow', () => {
  it('records the check, and only a change of state is an event', async () => {
    // One entity manager, as one request has: the check is written on the claim it loaded.
    const em = freshEm(t);
    const { domain } = await claim(t.accountId, 'verify.example.test', em);
    dns.setRecords({ [TARGET]: { A: ['93.184.216.34'] } });
    const failed = await verifyDomainNow(em, t.stack.ctx.domainChecks, domain);
    expect(failed.check.verified).toBe(false);
    expect(failed.audit).toMatchObject({
      skip: true,
      summary: 'verify.example.test failed verification',
    });
    dns.setRecords(pointAt('verify.example.test', t.accountId));
    const passed = await verifyDomainNow(em, t.stack.ctx.domainChecks, domain);
    expect(passed.check.verified).toBe(true);
    expect(passed.audit).toEqual({
      skip: false,
      targetId: 'verify.example.test',
      summary: 'verify.example.test verified',
    });
    const [row] = await t.stack.sql<{ verified_at: string | null; last_error: string | null }>(
      'select verified_at, last_error from domains where domain = ?',
      ['verify.example.test'],
    );
    expect(row!.verified_at).not.toBeNull();
    expect(row!.last_error).toBeNull();
  });

  it('the API and the dashboard record "Verify now" alike', async () => {
    for (const name of ['api.example.test', 'page.example.test']) {
      const res = await t.api.post('/api/domains', { domain: name });
      expect(res.status, res.text).toBe(201);
    }
    dns.setRecords({
      ...pointAt('api.example.test', t.accountId),
      ...pointAt('page.example.test', t.accountId),
    });
    const verified = await t.api.post('/api/domains/api.example.test/verify');
    expect(verified.status, verified.text).toBe(200);
    const app = await dashboardOf(t);
    await app.post('/app/domains/PAGE.example.test/verify');
    const entries = (await auditEntries(t, 'domain.verified')).filter((e) =>
      ['api.example.test', 'page.example.test'].includes(e.target_id ?? ''),
    );
    expect(entries).toEqual([
      {
        action: 'domain.verified',
        target_id: 'api.example.test',
        summary: 'api.example.test verified',
      },
      {
        action: 'domain.verified',
        target_id: 'page.example.test',
        summary: 'page.example.test verified',
      },
    ]);
  });
});
