import { describe, expect, it } from 'vitest';
import { request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { temporalClientOf } from '../support/retention-runs';
import { postMultipart, submitForm } from '../support/ingest-requests';
import { openAppSession, openGuestForm, postForm } from './dashboard-support';
import { appPost, invitationLink, sessionCookie } from './team-support';

// Teams over plain HTTP (docs/teams.md): invitations, roles, removal, ownership, switching
// accounts, what a viewer sees, and deleting an account.

const t = useTestStack();
const newEmail = () => `invitee-${Math.random().toString(36).slice(2)}@example.com`;
const pathOf = (link: string) => link.slice(new URL(link).origin.length);

/** The owner of the suite's account, signed in. */
const owner = () => openAppSession(t.stack.url, t.email, t.password);

async function invite(email: string, role: 'admin' | 'viewer', previous?: string) {
  const res = await appPost(t.stack.url, await owner(), '/app/team/invite', { email, role });
  expect(res.status, res.text).toBe(303);
  const before = previous && `${t.stack.url}${previous}`;
  return pathOf(await invitationLink(t.stack.url, email, before));
}

/** Posts the accept button of the invitation page as the signed-in user of `cookie`. */
async function acceptAs(cookie: string, invitePath: string) {
  // The signed-out forms' CSRF pair, as the invitation page's accept button carries it.
  const guest = await openGuestForm(t.stack.url, '/login');
  const token = new URL(invitePath, t.stack.url).searchParams.get('token')!;
  return request('POST', `${t.stack.url}/invite/accept`, {
    cookie: `${cookie}; ${guest.cookie}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, _csrf: guest.csrf }).toString(),
  });
}

describe('invitations', () => {
  it('a new address: the mailed link signs up a confirmed user acting in the invited account, once', async () => {
    await t.api.createForm({ name: 'Team form alpha' });
    const email = newEmail();
    const link = await invite(email, 'viewer');
    const guest = await openGuestForm(t.stack.url, link);
    const page = await request('GET', `${t.stack.url}${link}`, { cookie: guest.cookie });
    expect(page.text).toContain('Sign up and join');
    expect(page.text).toContain(email);
    const token = new URL(link, t.stack.url).searchParams.get('token')!;
    const res = await postForm(t.stack.url, '/invite/signup', guest, {
      token,
      password: 'a long enough password',
      name: 'Colleague',
    });
    expect(res.status, res.text).toBe(303);
    expect(res.headers.get('location')).toBe('/app');
    const cookie = sessionCookie(res);
    const forms = await request('GET', `${t.stack.url}/app/forms`, { cookie });
    expect(forms.text).toContain('Team form alpha');
    const team = await request('GET', `${t.stack.url}/app/team`, { cookie });
    expect(team.text).toMatch(new RegExp(`${email} \\(you\\)</td>\\s*<td>viewer</td>`));
    // Confirmed: signing in with the password works without a confirmation mail.
    await openAppSession(t.stack.url, email, 'a long enough password');
    const again = await request('GET', `${t.stack.url}${link}`);
    expect(again.status).toBe(400);
    expect(again.text).toContain('already accepted');
  });

  it('an existing user: sign in (next= the link), then accept; the session moves there', async () => {
    const other = await t.newTenant();
    await other.api.createForm({ name: 'Their own form' });
    await t.api.createForm({ name: 'Inviting account form' });
    const link = await invite(other.email, 'admin');
    const signedOut = await request('GET', `${t.stack.url}${link}`);
    expect(signedOut.text).toContain(
      `/login?next=${encodeURIComponent(link).replace(/&/g, '&amp;')}`,
    );
    const session = await openAppSession(t.stack.url, other.email, other.password);
    const before = await request('GET', `${t.stack.url}/app/forms`, { cookie: session.cookie });
    expect(before.text).toContain('Their own form');
    const accepted = await acceptAs(session.cookie, link);
    expect(accepted.status, accepted.text).toBe(303);
    const after = await request('GET', `${t.stack.url}/app/forms`, { cookie: session.cookie });
    expect(after.text).toContain('Inviting account form');
    expect(after.text).not.toContain('Their own form');
    // Admin: may open what changes forms.
    const newForm = await request('GET', `${t.stack.url}/app/forms/new`, {
      cookie: session.cookie,
    });
    expect(newForm.status).toBe(200);
  });

  it('an address with a sign-up never confirmed: the invitation completes it with a new password', async () => {
    const pending = await t.newTenant();
    await t.stack.sql('update users set email_confirmed_at = null where email = ?', [
      pending.email,
    ]);
    const link = await invite(pending.email, 'viewer');
    const guest = await openGuestForm(t.stack.url, link);
    const page = await request('GET', `${t.stack.url}${link}`, { cookie: guest.cookie });
    expect(page.text).toContain('Sign up and join');
    const token = new URL(link, t.stack.url).searchParams.get('token')!;
    const res = await postForm(t.stack.url, '/invite/signup', guest, {
      token,
      password: 'the invited one chose this',
    });
    expect(res.status, res.text).toBe(303);
    await openAppSession(t.stack.url, pending.email, 'the invited one chose this');
    const [row] = await t.stack.sql<{ role: string }>(
      `select m.role from memberships m join users u on u.id = m.user_id
        where u.email = ? and m.account_id = ?`,
      [pending.email, t.accountId],
    );
    expect(row!.role).toBe('viewer');
  });

  it('signed in as another address: refused, with a sign-out offered', async () => {
    const link = await invite(newEmail(), 'viewer');
    const stranger = await t.newTenant();
    const session = await openAppSession(t.stack.url, stranger.email, stranger.password);
    const page = await request('GET', `${t.stack.url}${link}`, { cookie: session.cookie });
    expect(page.text).toContain('This invitation is for another address');
    expect(page.text).toContain('action="/logout"');
    const refused = await acceptAs(session.cookie, link);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('another e-mail address');
    const members = await t.stack.sql(
      'select 1 from memberships m join users u on u.id = m.user_id where u.email = ? and m.account_id = ?',
      [stranger.email, t.accountId],
    );
    expect(members).toHaveLength(0);
  });

  it('revoked, replaced, expired and unknown links say so', async () => {
    const email = newEmail();
    const first = await invite(email, 'viewer');
    const second = await invite(email, 'admin', first);
    expect(second).not.toBe(first);
    const replaced = await request('GET', `${t.stack.url}${first}`);
    expect(replaced.status).toBe(400);
    expect(replaced.text).toContain('revoked');
    const session = await owner();
    const team = await request('GET', `${t.stack.url}/app/team`, { cookie: session.cookie });
    const id = new RegExp(
      `data-invitation="${email}">[\\s\\S]*?/app/team/invitations/(\\d+)/revoke`,
    ).exec(team.text)![1]!;
    expect((await appPost(t.stack.url, session, `/app/team/invitations/${id}/revoke`)).status).toBe(
      303,
    );
    expect((await request('GET', `${t.stack.url}${second}`)).text).toContain('revoked');

    const expiring = newEmail();
    const link = await invite(expiring, 'viewer');
    await t.stack.sql(
      `update invitations set expires_at = now() - interval '1 second' where email = ?`,
      [expiring],
    );
    const expired = await request('GET', `${t.stack.url}${link}`);
    expect(expired.text).toContain('expired');
    const unknown = await request('GET', `${t.stack.url}/invite?token=nothing-like-it`);
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('unknown');
  });

  it('an address already a member is refused; INVITATIONS_PER_HOUR caps an account', async () => {
    const session = await owner();
    const member = await t.stack.addMember(t.accountId, 'viewer');
    const already = await appPost(t.stack.url, session, '/app/team/invite', {
      email: member.email.toUpperCase(),
      role: 'admin',
    });
    expect(already.status).toBe(409);
    expect(already.text).toContain('already a member');

    const fresh = await t.newTenant();
    const freshOwner = await openAppSession(t.stack.url, fresh.email, fresh.password);
    for (let i = 0; i < 20; i++) {
      const res = await appPost(t.stack.url, freshOwner, '/app/team/invite', {
        email: `bomb-${i}@example.com`,
        role: 'viewer',
      });
      expect(res.status, res.text).toBe(303);
    }
    const capped = await appPost(t.stack.url, freshOwner, '/app/team/invite', {
      email: 'bomb-20@example.com',
      role: 'viewer',
    });
    expect(capped.status).toBe(409);
    expect(capped.text).toContain('INVITATIONS_PER_HOUR');
    const [budget] = await t.stack.sql<{ sent: number }>(
      `select sent from account_mail_hours where account_id = ? and hour = date_trunc('hour', now())`,
      [fresh.accountId],
    );
    expect(budget!.sent).toBe(20);
  });
});

describe('members', () => {
  it('a lowered role and a removal take effect on the very next request', async () => {
    const session = await owner();
    const admin = await t.stack.addMember(t.accountId, 'admin');
    const opened = await request('GET', `${t.stack.url}/app/forms/new`, { cookie: admin.cookie });
    expect(opened.status).toBe(200);
    const lowered = await appPost(t.stack.url, session, `/app/team/members/${admin.userId}/role`, {
      role: 'viewer',
    });
    expect(lowered.status, lowered.text).toBe(303);
    const next = await request('GET', `${t.stack.url}/app/forms`, { cookie: admin.cookie });
    expect(next.status).toBe(303);
    expect(next.headers.get('location')).toMatch(/^\/login/);
    const [row] = await t.stack.sql<{ role: string }>(
      'select role from memberships where account_id = ? and user_id = ?',
      [t.accountId, admin.userId],
    );
    expect(row!.role).toBe('viewer');

    const viewer = await t.stack.addMember(t.accountId, 'viewer');
    expect((await request('GET', `${t.stack.url}/app`, { cookie: viewer.cookie })).status).toBe(
      200,
    );
    const removed = await appPost(
      t.stack.url,
      session,
      `/app/team/members/${viewer.userId}/remove`,
    );
    expect(removed.status).toBe(303);
    const gone = await request('GET', `${t.stack.url}/app`, { cookie: viewer.cookie });
    expect(gone.status).toBe(303);
    expect(gone.headers.get('location')).toMatch(/^\/login/);
  });

  it('setting the role a member has already changes nothing and writes no audit entry', async () => {
    const session = await owner();
    const viewer = await t.stack.addMember(t.accountId, 'viewer');
    const changes = () =>
      t.stack.sql<{ id: string }>(
        `select id from audit_events
          where account_id = ? and action = 'member.role_changed' and target_id = ?`,
        [t.accountId, viewer.userId],
      );
    const same = await appPost(t.stack.url, session, `/app/team/members/${viewer.userId}/role`, {
      role: 'viewer',
    });
    expect(same.status, same.text).toBe(303);
    expect(await changes()).toHaveLength(0);
    // The member's session goes on: nothing was lowered.
    expect((await request('GET', `${t.stack.url}/app`, { cookie: viewer.cookie })).status).toBe(
      200,
    );
    const raised = await appPost(t.stack.url, session, `/app/team/members/${viewer.userId}/role`, {
      role: 'admin',
    });
    expect(raised.status, raised.text).toBe(303);
    expect(await changes()).toHaveLength(1);
  });

  it('the owner cannot remove themselves; a member may leave', async () => {
    const session = await owner();
    const [self] = await t.stack.sql<{ user_id: string }>(
      `select user_id from memberships where account_id = ? and role = 'owner'`,
      [t.accountId],
    );
    const refused = await appPost(
      t.stack.url,
      session,
      `/app/team/members/${self!.user_id}/remove`,
    );
    expect(refused.status).toBe(409);
    const member = await t.stack.addMember(t.accountId, 'viewer');
    const left = await appPost(t.stack.url, member, '/app/team/leave');
    expect(left.status).toBe(303);
    const rows = await t.stack.sql(
      'select 1 from memberships where account_id = ? and user_id = ?',
      [t.accountId, member.userId],
    );
    expect(rows).toHaveLength(0);
  });

  it('transferring ownership keeps exactly one owner; the old owner becomes admin', async () => {
    const tenant = await t.newTenant();
    const oldOwner = await openAppSession(t.stack.url, tenant.email, tenant.password);
    const admin = await t.stack.addMember(tenant.accountId, 'admin');
    const moved = await appPost(
      t.stack.url,
      oldOwner,
      `/app/team/members/${admin.userId}/transfer`,
    );
    expect(moved.status, moved.text).toBe(303);
    const roles = await t.stack.sql<{ email: string; role: string }>(
      `select u.email, m.role from memberships m join users u on u.id = m.user_id
        where m.account_id = ? order by u.email`,
      [tenant.accountId],
    );
    expect(roles.filter((row) => row.role === 'owner')).toEqual([
      { email: admin.email, role: 'owner' },
    ]);
    expect(roles.find((row) => row.email === tenant.email)!.role).toBe('admin');
    const invite = await appPost(t.stack.url, oldOwner, '/app/team/invite', {
      email: newEmail(),
      role: 'viewer',
    });
    expect(invite.status).toBe(403);
  });
});

describe('switching accounts', () => {
  it('the header switches to another account of the user, and refuses one they are not in', async () => {
    const a = await t.newTenant();
    const b = await t.newTenant();
    await a.api.createForm({ name: 'Form of A' });
    await b.api.createForm({ name: 'Form of B' });
    const [user] = await t.stack.sql<{ id: string }>('select id from users where email = ?', [
      b.email,
    ]);
    await t.stack.sql(
      `insert into memberships (account_id, user_id, role) values (?, ?, 'viewer')`,
      [a.accountId, user!.id],
    );
    const session = await openAppSession(t.stack.url, b.email, b.password);
    const before = await request('GET', `${t.stack.url}/app/forms`, { cookie: session.cookie });
    expect(before.text).toContain('Form of B');
    expect(before.text).toContain('action="/app/accounts/switch"');
    const switched = await appPost(t.stack.url, session, '/app/accounts/switch', {
      account: a.accountId,
    });
    expect(switched.status).toBe(303);
    const after = await request('GET', `${t.stack.url}/app/forms`, { cookie: session.cookie });
    expect(after.text).toContain('Form of A');
    expect(after.text).not.toContain('Form of B');
    const refused = await appPost(t.stack.url, session, '/app/accounts/switch', {
      account: t.accountId,
    });
    expect(refused.status).toBe(404);
    // Signing in again returns to the account used last.
    const again = await openAppSession(t.stack.url, b.email, b.password);
    const last = await request('GET', `${t.stack.url}/app/forms`, { cookie: again.cookie });
    expect(last.text).toContain('Form of A');
  });
});

describe('what a viewer sees', () => {
  it('no change controls on the forms list, a form, its webhooks, a submission', async () => {
    const form = await t.api.createForm({ name: 'Viewed form' });
    await t.api.addWebhook(form.id, 'https://93.184.216.34/hook');
    const submissionId = await submitForm(form, { email: 'a@example.com' });
    const viewer = await t.stack.addMember(t.accountId, 'viewer');
    const admin = await t.stack.addMember(t.accountId, 'admin');
    const pages = [
      ['/app/forms', 'href="/app/forms/new"'],
      [`/app/forms/${form.id}`, 'Send a test submission'],
      [`/app/forms/${form.id}`, 'Danger zone'],
      [`/app/forms/${form.id}/fields`, 'Add the field'],
      [`/app/forms/${form.id}/spam`, 'Save CAPTCHA'],
      [`/app/forms/${form.id}/plugins`, 'Add a webhook'],
      [`/app/forms/${form.id}/plugins`, 'Rotate secret'],
      [`/app/submissions/${submissionId}`, 'Delete this submission'],
    ] as const;
    for (const [path, control] of pages) {
      const seen = await request('GET', `${t.stack.url}${path}`, { cookie: viewer.cookie });
      expect(seen.status, path).toBe(200);
      expect(seen.text, `${path}: ${control}`).not.toContain(control);
      const full = await request('GET', `${t.stack.url}${path}`, { cookie: admin.cookie });
      expect(full.text, `${path}: ${control}`).toContain(control);
    }
  });
});

describe('deleting an account', () => {
  it('names what goes, needs the name, deletes it all and ends every session in it', async () => {
    const doomed = await t.newTenant();
    const form = await doomed.api.createForm({ name: 'Doomed form', accept_files: true });
    const upload = await postMultipart(
      form.submission_url,
      [
        { name: 'email', value: 'a@example.com' },
        { name: 'cv', filename: 'cv.txt', contentType: 'text/plain', content: 'hello' },
      ],
      { accept: 'application/json' },
    );
    expect(upload.status, upload.text).toBe(200);
    const member = await t.stack.addMember(doomed.accountId, 'viewer');
    const survivorForms = await t.stack.sql<{ n: number }>(
      'select count(*)::int as n from forms where account_id = ?',
      [t.accountId],
    );
    const session = await openAppSession(t.stack.url, doomed.email, doomed.password);
    const confirm = await request('GET', `${t.stack.url}/app/account/delete`, {
      cookie: session.cookie,
    });
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('<li>1 forms</li>');
    expect(confirm.text).toContain('<li>1 submissions</li>');
    expect(confirm.text).toContain('<li>1 uploaded files</li>');
    expect(confirm.text).toContain('<li>2 members’ access');
    const viewerTry = await request('GET', `${t.stack.url}/app/account/delete`, {
      cookie: member.cookie,
    });
    expect(viewerTry.status).toBe(403);

    const wrongName = await appPost(t.stack.url, session, '/app/account/delete', { name: 'nope' });
    expect(wrongName.status).toBe(422);
    const deleted = await appPost(t.stack.url, session, '/app/account/delete', {
      name: doomed.email,
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.text).toContain('are deleted; your session ended');
    const count = (table: string) =>
      t.stack.sql<{ n: number }>(`select count(*)::int as n from ${table} where account_id = ?`, [
        doomed.accountId,
      ]);
    for (const table of ['forms', 'submissions', 'memberships', 'sessions'])
      expect((await count(table))[0]!.n, table).toBe(0);
    const files = await t.stack.sql(
      'select 1 from submission_files f where not exists (select 1 from submissions s where s.id = f.submission_id)',
    );
    expect(files).toHaveLength(0);
    expect(await t.stack.sql('select 1 from users where email = ?', [doomed.email])).toHaveLength(
      0,
    );
    // The member keeps their own account and user, but not their access to the deleted one.
    expect(await t.stack.sql('select 1 from users where email = ?', [member.email])).toHaveLength(
      1,
    );
    const memberNext = await request('GET', `${t.stack.url}/app`, { cookie: member.cookie });
    expect(memberNext.status).toBe(303);
    expect((await request('GET', `${t.stack.url}/app`, { cookie: session.cookie })).status).toBe(
      303,
    );
    const survivors = await t.stack.sql<{ n: number }>(
      'select count(*)::int as n from forms where account_id = ?',
      [t.accountId],
    );
    expect(survivors).toEqual(survivorForms);
  });

  it('terminates the account’s running recovery workflows', async () => {
    const doomed = await t.newTenant();
    const form = await doomed.api.createForm({ name: 'Recovering form' });
    const plugin = await doomed.api.addWebhook(form.id, 'https://93.184.216.34/hook');
    const temporal = await temporalClientOf(t.stack);
    try {
      // A run no worker picks up (its own task queue), so it stays running until terminated.
      const workflowId = `recovery-team-test-${Date.now()}`;
      const handle = await temporal.client.workflow.start('recoveryWorkflow', {
        taskQueue: `nobody-polls-${Date.now()}`,
        workflowId,
        args: [],
      });
      await t.stack.sql(
        `insert into plugin_recoveries (plugin_id, account_id, since, until, total, status, workflow_id)
         values (?, ?, now() - interval '1 day', now(), 1, 'running', ?)`,
        [plugin.id, doomed.accountId, workflowId],
      );
      expect((await handle.describe()).status.name).toBe('RUNNING');
      const session = await openAppSession(t.stack.url, doomed.email, doomed.password);
      const deleted = await appPost(t.stack.url, session, '/app/account/delete', {
        name: doomed.email,
      });
      expect(deleted.status).toBe(200);
      expect((await handle.describe()).status.name).toBe('TERMINATED');
    } finally {
      await temporal.close();
    }
  });
});
