import { describe, expect, it } from 'vitest';
import { expectError, request, type ApiResponse } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { followReveal, openAppSession, type AppSession } from './dashboard-support';
import { appPost } from './team-support';

// The API keys a member created, when the owner removes them or lowers their role
// (docs/teams.md): listed before the removal, revoked with it unless the owner keeps them,
// revoked with a lower role; the team page and the audit log say so.

const t = useTestStack();

const owner = () => openAppSession(t.stack.url, t.email, t.password);

/** An admin of the suite's account with a key they created on /app/keys. */
async function adminWithKey(name: string) {
  const admin = await t.stack.addMember(t.accountId, 'admin');
  const posted = await appPost(t.stack.url, admin, '/app/keys', { name, role: 'admin' });
  const { page } = await followReveal(t.stack.url, admin.cookie, posted);
  const key = /<code id="new-key" class="secret">([^<]+)<\/code>/.exec(page.text)![1]!;
  expect((await request('GET', `${t.stack.url}/api/forms`, { key })).status).toBe(200);
  return { admin, key };
}

const refused = async (key: string) =>
  expectError(await request('GET', `${t.stack.url}/api/forms`, { key }), 401, 'invalid_api_key');

/** The team page the post redirected to, with what it was told once. */
async function teamAfter(session: AppSession, posted: ApiResponse) {
  const { page } = await followReveal(t.stack.url, session.cookie, posted);
  return page.text;
}

describe('removing a member', () => {
  it('lists the keys they created, then revokes them with the removal, each in the audit log', async () => {
    const session = await owner();
    const { admin, key } = await adminWithKey('Nightly export');
    const confirm = await request('GET', `${t.stack.url}/app/team/members/${admin.userId}/remove`, {
      cookie: session.cookie,
    });
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('<td>Nightly export</td>');
    expect(confirm.text).toContain(`<code>${key.slice(0, 12)}…</code>`);
    expect(confirm.text).toContain('<td>admin</td>');
    expect(confirm.text).toContain('name="keep_keys" value="yes"');
    // A member may not open it.
    const asAdmin = await request('GET', `${t.stack.url}/app/team/members/${admin.userId}/remove`, {
      cookie: admin.cookie,
    });
    expect(asAdmin.status).toBe(403);

    const removed = await appPost(t.stack.url, session, `/app/team/members/${admin.userId}/remove`);
    expect(removed.status, removed.text).toBe(303);
    await refused(key);
    const team = await teamAfter(session, removed);
    expect(team).toContain(`1 API key that ${admin.email} created was revoked`);

    const [keyRow] = await t.stack.sql<{ id: string }>(
      'select id::text as id from api_keys where account_id = ? and created_by_user_id = ?',
      [t.accountId, admin.userId],
    );
    const [ownerRow] = await t.stack.sql<{ user_id: string }>(
      `select user_id::text as user_id from memberships where account_id = ? and role = 'owner'`,
      [t.accountId],
    );
    const entries = await t.stack.sql<{ actor_user_id: string; target_id: string }>(
      `select actor_user_id::text as actor_user_id, target_id from audit_events
        where account_id = ? and action = 'api_key.revoked' and target_type = 'api_key'
          and target_id = ?`,
      [t.accountId, keyRow!.id],
    );
    expect(entries).toEqual([{ actor_user_id: ownerRow!.user_id, target_id: keyRow!.id }]);
  });

  it('keeps their keys when the owner chooses to', async () => {
    const session = await owner();
    const { admin, key } = await adminWithKey('Kept integration');
    const removed = await appPost(
      t.stack.url,
      session,
      `/app/team/members/${admin.userId}/remove`,
      {
        keep_keys: 'yes',
      },
    );
    expect(removed.status, removed.text).toBe(303);
    expect((await request('GET', `${t.stack.url}/api/forms`, { key })).status).toBe(200);
    const team = await teamAfter(session, removed);
    expect(team).toContain(`1 API key that ${admin.email} created still works`);
    // The member is gone all the same.
    const gone = await request('GET', `${t.stack.url}/app`, { cookie: admin.cookie });
    expect(gone.status).toBe(303);
  });

  it('a member leaving takes their keys with them', async () => {
    const { admin, key } = await adminWithKey('Leaver key');
    const left = await appPost(t.stack.url, admin, '/app/team/leave');
    expect(left.status, left.text).toBe(303);
    await refused(key);
  });
});

describe('lowering a role', () => {
  it('admin to viewer revokes the keys they created, and the team page says how many', async () => {
    const session = await owner();
    const { admin, key } = await adminWithKey('Demoted key');
    const other = await adminWithKey('Another admin key');
    const lowered = await appPost(t.stack.url, session, `/app/team/members/${admin.userId}/role`, {
      role: 'viewer',
    });
    expect(lowered.status, lowered.text).toBe(303);
    await refused(key);
    // Only the keys that member created.
    expect((await request('GET', `${t.stack.url}/api/forms`, { key: other.key })).status).toBe(200);
    const team = await teamAfter(session, lowered);
    expect(team).toContain(`1 API key that ${admin.email} created was revoked`);
  });
});
