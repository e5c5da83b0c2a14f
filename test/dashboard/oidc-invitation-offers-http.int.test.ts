import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/accounts/secrets';
import { request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { freePort, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import { browse, CookieJar, signInAtProvider } from '../support/oidc-flow';
import { openAppSession, type AppSession } from './dashboard-support';
import { appPost, sessionOfCookie } from './team-support';

// Single sign-on never joins an account by itself (docs/teams.md): invitations to the
// address are offered after sign-in, to accept or decline, and the session opens in the
// account used last. A real OpenID Connect provider (oidc-provider), over plain HTTP.

let provider: TestOidcProvider;
let port: number;
beforeAll(async () => {
  port = await freePort();
  provider = await startOidcProvider(`http://127.0.0.1:${port}`);
});
afterAll(() => provider?.stop());

const t = useTestStack(() => ({ env: { PORT: String(port), ...provider.env() } }));

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/** A person at the provider with a fresh login and address. */
function person() {
  const login = unique('login');
  const email = `${unique('invitee')}@example.com`;
  provider.addPerson(login, { email, email_verified: true });
  return { login, email };
}

/** Signs in through the provider: the callback's answer and the session it opened. */
async function signInBySso(login: string) {
  const jar = new CookieJar();
  const res = await browse(jar, await signInAtProvider(jar, t.stack.url, login));
  expect(res.status, await res.clone().text()).toBe(303);
  const token = jar.get(t.stack.url, 'formward_session')!;
  const [row] = await t.stack.sql<{ user_id: string; account_id: string }>(
    'select user_id::text, account_id::text from sessions where token_hash = ?',
    [sha256Hex(token)],
  );
  const app: AppSession = await sessionOfCookie(t.stack.url, `formward_session=${token}`);
  return { location: res.headers.get('location'), app, ...row! };
}

async function invite(owner: AppSession, email: string, role = 'viewer') {
  const res = await appPost(t.stack.url, owner, '/app/team/invite', { email, role });
  expect(res.status, res.text).toBe(303);
  const [row] = await t.stack.sql<{ id: string }>(
    `select id::text from invitations where email = lower(?) and accepted_at is null
        and revoked_at is null order by id desc limit 1`,
    [email],
  );
  return row!.id;
}

const membershipsOf = (userId: string) =>
  t.stack.sql<{ account_id: string; role: string }>(
    'select account_id::text, role from memberships where user_id = ? order by account_id',
    [userId],
  );

/** Whether the account's form counts the address as a confirmed recipient. */
async function recipientConfirmed(formId: string, address: string) {
  const res = await t.api.get(`/api/forms/${formId}`);
  const { form } = res.body as {
    form: { notification_recipients: { address: string; confirmed: boolean }[] };
  };
  return form.notification_recipients.find((r) => r.address === address)?.confirmed;
}

describe('invitations after single sign-on', () => {
  it('a pending invitation is offered, not joined: no membership, no sign-in in the inviter’s log, no confirmed recipient; Accept joins', async () => {
    const someone = person();
    const owner = await openAppSession(t.stack.url, t.email, t.password);
    const invitationId = await invite(owner, someone.email);
    const form = await t.api.createForm({
      name: 'Invitee recipient',
      notification_email_addresses: [someone.email],
    });
    expect(await recipientConfirmed(form.id, someone.email)).toBe(false);

    const signedIn = await signInBySso(someone.login);
    expect(signedIn.account_id).not.toBe(t.accountId);
    expect(signedIn.location).toBe('/app/invitations');
    expect(await membershipsOf(signedIn.user_id)).toEqual([
      { account_id: signedIn.account_id, role: 'owner' },
    ]);
    const inviterLog = await t.stack.sql(
      'select action from audit_events where account_id = ? and actor_user_id = ?',
      [t.accountId, signedIn.user_id],
    );
    expect(inviterLog).toEqual([]);
    expect(await recipientConfirmed(form.id, someone.email)).toBe(false);

    // The offer: who invited, the role, the account's name as quoted text.
    const offers = await request('GET', `${t.stack.url}/app/invitations`, {
      cookie: signedIn.app.cookie,
    });
    expect(offers.status).toBe(200);
    expect(offers.text).toContain(`${t.email} invited you to join the account named “`);
    expect(offers.text).toContain(`action="/app/invitations/${invitationId}/accept"`);
    expect(offers.text).toContain(`action="/app/invitations/${invitationId}/decline"`);
    const overview = await request('GET', `${t.stack.url}/app`, { cookie: signedIn.app.cookie });
    expect(overview.text).toContain(`action="/app/invitations/${invitationId}/accept"`);

    // Without the session's CSRF token nothing happens.
    const forged = await request('POST', `${t.stack.url}/app/invitations/${invitationId}/accept`, {
      cookie: signedIn.app.cookie,
    });
    expect(forged.status).toBe(403);

    const accepted = await appPost(
      t.stack.url,
      signedIn.app,
      `/app/invitations/${invitationId}/accept`,
    );
    expect(accepted.status, accepted.text).toBe(303);
    expect(accepted.headers.get('location')).toBe('/app');
    expect(await membershipsOf(signedIn.user_id)).toContainEqual({
      account_id: t.accountId,
      role: 'viewer',
    });
    expect(await recipientConfirmed(form.id, someone.email)).toBe(true);
    const [joined] = await t.stack.sql<{ action: string }>(
      'select action from audit_events where account_id = ? and actor_user_id = ?',
      [t.accountId, signedIn.user_id],
    );
    expect(joined).toEqual({ action: 'invitation.accepted' });
    // Used once: a second click is refused with the reason.
    const again = await appPost(
      t.stack.url,
      signedIn.app,
      `/app/invitations/${invitationId}/accept`,
    );
    expect(again.status).toBe(409);
    expect(again.text).toContain('already accepted');
  });

  it('Decline marks it declined and the inviter sees that on the team page', async () => {
    const someone = person();
    const owner = await openAppSession(t.stack.url, t.email, t.password);
    const invitationId = await invite(owner, someone.email, 'admin');
    const signedIn = await signInBySso(someone.login);

    const declined = await appPost(
      t.stack.url,
      signedIn.app,
      `/app/invitations/${invitationId}/decline`,
    );
    expect(declined.status, declined.text).toBe(303);
    expect(declined.headers.get('location')).toBe('/app/invitations');
    expect(await membershipsOf(signedIn.user_id)).toHaveLength(1);
    const [row] = await t.stack.sql<{ declined: boolean; accepted: boolean }>(
      `select declined_at is not null as declined, accepted_at is not null as accepted
         from invitations where id = ?`,
      [invitationId],
    );
    expect(row).toEqual({ declined: true, accepted: false });
    const offers = await request('GET', `${t.stack.url}/app/invitations`, {
      cookie: signedIn.app.cookie,
    });
    expect(offers.text).not.toContain(`/app/invitations/${invitationId}/accept`);
    const accept = await appPost(
      t.stack.url,
      signedIn.app,
      `/app/invitations/${invitationId}/accept`,
    );
    expect(accept.status).toBe(409);
    expect(accept.text).toContain('was declined');

    const team = await request('GET', `${t.stack.url}/app/team`, { cookie: owner.cookie });
    const line = new RegExp(`<tr data-invitation="${someone.email}" data-declined>[\\s\\S]*?</tr>`);
    expect(team.text).toMatch(line);
    expect(line.exec(team.text)![0]).toContain('declined');
    const [entry] = await t.stack.sql<{ action: string; summary: string }>(
      'select action, summary from audit_events where account_id = ? and actor_user_id = ?',
      [t.accountId, signedIn.user_id],
    );
    expect(entry).toEqual({ action: 'invitation.declined', summary: `${someone.email} declined` });
  });

  it('the session opens in the account used last, never in an inviting one', async () => {
    const someone = person();
    const owner = await openAppSession(t.stack.url, t.email, t.password);
    const first = await signInBySso(someone.login);
    const own = first.account_id;
    // They join t's account by the offer: the session moves there, the account used last.
    const id = await invite(owner, someone.email);
    expect((await appPost(t.stack.url, first.app, `/app/invitations/${id}/accept`)).status).toBe(
      303,
    );
    // Another account invites them meanwhile.
    const other = await t.newTenant();
    const otherOwner = await openAppSession(t.stack.url, other.email, other.password);
    await invite(otherOwner, someone.email);

    const second = await signInBySso(someone.login);
    expect(second.account_id).toBe(t.accountId);
    expect((await membershipsOf(second.user_id)).map((m) => m.account_id)).not.toContain(
      other.accountId,
    );
    // Switching back to their own account makes it the one the next sign-in opens.
    const switched = await appPost(t.stack.url, second.app, '/app/accounts/switch', {
      account: own,
    });
    expect(switched.status).toBe(303);
    expect((await signInBySso(someone.login)).account_id).toBe(own);
  });

  it('a password sign-in joins nothing either: the offer waits on /app', async () => {
    const other = await t.newTenant();
    const owner = await openAppSession(t.stack.url, t.email, t.password);
    const id = await invite(owner, other.email);
    const session = await openAppSession(t.stack.url, other.email, other.password);
    const [user] = await t.stack.sql<{ id: string }>('select id::text from users where email = ?', [
      other.email,
    ]);
    expect(await membershipsOf(user!.id)).toHaveLength(1);
    const overview = await request('GET', `${t.stack.url}/app`, { cookie: session.cookie });
    expect(overview.text).toContain(`action="/app/invitations/${id}/accept"`);
  });
});
