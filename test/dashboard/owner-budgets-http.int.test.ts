import { beforeAll, describe, expect, it } from 'vitest';
import { takeHourlyMail } from '../../src/db/sql/mail-budget';
import { InvitationRefused, inviteMember } from '../../src/domain/accounts/invitations';
import { createOwnAccount } from '../../src/domain/accounts/memberships';
import { ApiClient, expectError } from '../support/api-client';
import { useTestStack, type Tenant } from '../support/fixture';
import { type Part, postMultipart, submitJson } from '../support/ingest-requests';
import { openAppSession, postForm } from './dashboard-support';

// Accounts per user and the budgets per owning user (decisions.md §20, docs/teams.md): a user
// owns at most MAX_ACCOUNTS_PER_USER accounts, and forms, the file quota and the hourly mail
// budget hold summed over every account the owner owns, so a second account never doubles one.

const KIB = 1024;
const t = useTestStack({
  env: {
    MAX_FORMS_PER_ACCOUNT: '3',
    FILE_QUOTA_PER_ACCOUNT: '16KiB',
    ACCOUNT_MAIL_PER_HOUR: '3',
    REPLAY_RATE: '2',
  },
});

const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

async function ownedAccounts(email: string): Promise<string[]> {
  const rows = await t.stack.sql<{ account_id: string }>(
    `select m.account_id::text as account_id from memberships m join users u on u.id = m.user_id
      where u.email = ? and m.role = 'owner' order by m.account_id`,
    [email],
  );
  return rows.map((row) => row.account_id);
}

/** A signed-in dashboard session of the tenant's user, posting forms with its CSRF token. */
async function dashboard(tenant: Pick<Tenant, 'email' | 'password'>) {
  const app = await openAppSession(t.stack.url, tenant.email, tenant.password);
  return {
    post: (path: string, fields: Record<string, string> = {}) =>
      postForm(t.stack.url, path, app, fields),
  };
}

/** A second account of the tenant's user, made on /app/accounts, with an admin key. */
async function secondAccount(tenant: Tenant) {
  const created = await (await dashboard(tenant)).post('/app/accounts', { name: 'Second' });
  expect(created.status, created.text).toBe(303);
  const accountId = (await ownedAccounts(tenant.email)).at(-1)!;
  expect(accountId).not.toBe(tenant.accountId);
  const key = await t.stack.createKey(accountId, 'admin');
  return { accountId, api: new ApiClient(t.stack.url, { key }) };
}

describe('accounts per user (MAX_ACCOUNTS_PER_USER)', () => {
  it('the sixth account is refused on /app/accounts with a message naming the limit; nothing is created', async () => {
    const tenant = await t.newTenant();
    const s = await dashboard(tenant);
    for (const n of [2, 3, 4, 5]) {
      const created = await s.post('/app/accounts', { name: `Account ${n}` });
      expect(created.status, created.text).toBe(303);
    }
    expect(await ownedAccounts(tenant.email)).toHaveLength(5);
    const refused = await s.post('/app/accounts', { name: 'Account 6' });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Account not created');
    expect(refused.text).toContain('You own 5 accounts; MAX_ACCOUNTS_PER_USER allows at most 5.');
    expect(await ownedAccounts(tenant.email)).toHaveLength(5);
    const [{ named }] = await t.stack.sql<{ named: number }>(
      `select count(*)::int as named from accounts where name = 'Account 6'`,
    );
    expect(named).toBe(0);
  });

  it('parallel creations cannot pass the limit together', async () => {
    const tenant = await t.newTenant();
    const s = await dashboard(tenant);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => s.post('/app/accounts', { name: `Racer ${n}` })),
    );
    expect(statuses(answers)).toEqual([303, 303, 303, 303, 409, 409, 409, 409]);
    expect(await ownedAccounts(tenant.email)).toHaveLength(5);
  });

  it('ownership is not transferred to a member who owns as many accounts as allowed', async () => {
    const tenant = await t.newTenant();
    const member = await t.stack.addMember(tenant.accountId, 'admin');
    const em = t.stack.ctx.orm.em.fork();
    for (const n of [2, 3, 4, 5]) await createOwnAccount(em, member.userId, `Member's ${n}`, 0);
    const s = await dashboard(tenant);
    const refused = await s.post(`/app/team/members/${member.userId}/transfer`);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('MAX_ACCOUNTS_PER_USER allows at most 5');
    expect(await ownedAccounts(tenant.email)).toContain(tenant.accountId);
  });
});

describe('budgets per owning user, summed over the accounts they own', () => {
  it('forms stop at MAX_FORMS_PER_ACCOUNT across two accounts of one owner, even in parallel', async () => {
    const tenant = await t.newTenant();
    const second = await secondAccount(tenant);
    await tenant.api.createForm({ name: 'First of A' });
    // Two places left for the owner: four creations at once, two in each account.
    const answers = await Promise.all([
      tenant.api.post('/api/forms', { name: 'A 1' }),
      tenant.api.post('/api/forms', { name: 'A 2' }),
      second.api.post('/api/forms', { name: 'B 1' }),
      second.api.post('/api/forms', { name: 'B 2' }),
    ]);
    expect(statuses(answers)).toEqual([201, 201, 409, 409]);
    const refused = expectError(
      answers.find((a) => a.status === 409)!,
      409,
      'limit_reached',
    );
    expect(refused.message).toContain('MAX_FORMS_PER_ACCOUNT allows at most 3 per owner');
    expectError(await second.api.post('/api/forms', { name: 'B 3' }), 409, 'limit_reached');
    const [{ total }] = await t.stack.sql<{ total: number }>(
      'select count(*)::int as total from forms where account_id in (?, ?)',
      [tenant.accountId, second.accountId],
    );
    expect(total).toBe(3);
    // Another owner has a budget of its own.
    await (await t.newTenant()).api.createForm({ name: 'Elsewhere' });
  });

  it('the file quota per account holds summed over the owner’s accounts', async () => {
    const tenant = await t.newTenant();
    const second = await secondAccount(tenant);
    const file = (name: string, size: number): Part => ({
      name,
      filename: `${name}.bin`,
      contentType: 'application/octet-stream',
      content: Buffer.alloc(size, 7),
    });
    const json = { Accept: 'application/json' };
    const inA = await tenant.api.createForm({ accept_files: true });
    const inB = await second.api.createForm({ accept_files: true });
    const first = await postMultipart(inA.submission_url, [file('a', 9 * KIB)], json);
    expect(first.status, first.text).toBe(200);
    // 16 KiB for the owner: 8 KiB more in the other account would pass it.
    const over = await postMultipart(inB.submission_url, [file('b', 8 * KIB)], json);
    const body = expectError(over, 413, 'payload_too_large');
    expect(body.message).toMatch(/account.*16 KiB per owner/);
    const fits = await postMultipart(inB.submission_url, [file('c', 6 * KIB)], json);
    expect(fits.status, fits.text).toBe(200);
    const [{ files }] = await t.stack.sql<{ files: number }>(
      'select coalesce(sum(size), 0)::int as files from submission_files where account_id in (?, ?)',
      [tenant.accountId, second.accountId],
    );
    expect(files).toBe(15 * KIB);
  });

  it('replays per minute (REPLAY_RATE) and invitations per hour are counted per owner too', async () => {
    const tenant = await t.newTenant();
    const second = await secondAccount(tenant);
    const inA = await submitJson(await tenant.api.createForm({ name: 'A' }), { n: 1 });
    const inB = await submitJson(await second.api.createForm({ name: 'B' }), { n: 2 });
    expect((await tenant.api.post(`/api/submissions/${inA}/replay`)).status).toBe(202);
    expect((await second.api.post(`/api/submissions/${inB}/replay`)).status).toBe(202);
    const refused = expectError(
      await tenant.api.post(`/api/submissions/${inA}/replay`),
      429,
      'rate_limited',
    );
    expect(refused.message).toContain('REPLAY_RATE of 2 replays a minute (per owner');

    const [{ id: userId }] = await t.stack.sql<{ id: string }>(
      'select id::text as id from users where email = ?',
      [tenant.email],
    );
    const invite = (accountId: string, n: number) =>
      inviteMember(
        t.stack.ctx.orm.em.fork(),
        {
          mailing: t.stack.ctx.accounts.mailing,
          invitationsPerHour: 2,
          invitationsPerAddressPerDay: 3,
          mailPerHour: 100,
          addressKeys: t.stack.ctx.addressKeys,
          unsubscribes: t.stack.ctx.accounts.invitationUnsubscribes,
        },
        {
          accountId,
          invitedByUserId: userId,
          email: `guest-${n}-${userId}@example.com`,
          role: 'viewer',
        },
      );
    await invite(tenant.accountId, 1);
    await invite(second.accountId, 2);
    const capped = await invite(second.accountId, 3).catch((error: unknown) => error);
    expect(capped).toBeInstanceOf(InvitationRefused);
    expect((capped as Error).message).toContain('INVITATIONS_PER_HOUR allows no more per owner');
  });

  describe('the hourly mail budget (ACCOUNT_MAIL_PER_HOUR)', () => {
    // The budget is per clock hour (PostgreSQL's now()): begin with two minutes of the hour
    // left at least, so the test never starts on a fresh budget half-way.
    beforeAll(async () => {
      const msLeftInHour = 3_600_000 - (Date.now() % 3_600_000);
      if (msLeftInHour < 120_000)
        await new Promise((resolve) => setTimeout(resolve, msLeftInHour + 1_000));
    }, 200_000);

    it('is spent by every account of one owner together, even in parallel', async () => {
      const tenant = await t.newTenant();
      const second = await secondAccount(tenant);
      const take = (accountId: string, count: number) =>
        takeHourlyMail(t.stack.ctx.orm.em.fork(), accountId, count, 3);
      expect(await take(tenant.accountId, 2)).toBe(true);
      expect(await take(second.accountId, 2)).toBe(false);
      expect(await take(second.accountId, 1)).toBe(true);
      expect(await take(tenant.accountId, 1)).toBe(false);

      // Another owner: six single messages at once over two accounts, three fit.
      const other = await t.newTenant();
      const otherSecond = await secondAccount(other);
      const taken = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) => take(n % 2 ? other.accountId : otherSecond.accountId, 1)),
      );
      expect(taken.filter(Boolean)).toHaveLength(3);
    });
  });
});
