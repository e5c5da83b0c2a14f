import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPart, headerValue, readMimeMessage } from '../../src/domain/mail/mime-reader';
import { request } from '../support/api-client';
import { eventually } from '../support/eventually';
import { useTestStack } from '../support/fixture';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '../support/smtp-sink';
import { openAppSession } from './dashboard-support';
import { appPost } from './team-support';

// Caps on invitation mail (docs/teams.md, "Invitations"), on the real stack with the SMTP
// sink: per address a day across all accounts, per account an hour (atomic), and the
// one-click unsubscribe every invitation carries.

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await smtp?.close();
});

const t = useTestStack(() => ({
  env: {
    SMTP_URL: smtp.url(),
    MAIL_FROM: 'Formward <forms@formward.test>',
    INVITATIONS_PER_HOUR: '3',
  },
}));

const address = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.org`;
const mailsTo = (to: string) => smtp.messages.filter((m) => m.rcptTo.includes(to));
const header = (message: SinkMessage, name: string) =>
  headerValue(readMimeMessage(message.raw), name);

/** A new account's owner, signed in, and a way to invite with it. */
async function inviter() {
  const tenant = await t.newTenant();
  const session = await openAppSession(t.stack.url, tenant.email, tenant.password);
  return {
    tenant,
    invite: (email: string) =>
      appPost(t.stack.url, session, '/app/team/invite', { email, role: 'viewer' }),
  };
}

/** Waits until the sink holds `count` mails to the address, then a moment for any more. */
async function mailsArrived(to: string, count: number) {
  await eventually(async () => mailsTo(to).length >= count, { what: `${count} mails to ${to}` });
  await new Promise((resolve) => setTimeout(resolve, 300));
  return mailsTo(to);
}

describe('invitation mail', () => {
  it('one address gets at most INVITATIONS_PER_ADDRESS_PER_DAY invitations from all accounts, re-invitations included', async () => {
    const invitee = address('invitee');
    const first = await inviter();
    const second = await inviter();
    expect((await first.invite(invitee)).status).toBe(303);
    expect((await first.invite(invitee)).status).toBe(303); // a re-invitation is a mail too
    expect((await second.invite(invitee)).status).toBe(303);
    await mailsArrived(invitee, 3);

    const capped = await second.invite(invitee);
    expect(capped.status).toBe(409);
    expect(capped.text).toContain('INVITATIONS_PER_ADDRESS_PER_DAY');
    // The inviter is not told which accounts invited the address.
    expect(capped.text).not.toContain(first.tenant.email);
    // Revoking the pending invitations (or deleting them) does not give the address more.
    await t.stack.sql('delete from invitations where email = ?', [invitee]);
    expect((await (await inviter()).invite(invitee)).status).toBe(409);
    expect(await mailsArrived(invitee, 3)).toHaveLength(3);
    // Another address is not affected.
    expect((await second.invite(address('someone'))).status).toBe(303);
  });

  it('carries a one-click unsubscribe; once followed, no account can invite the address', async () => {
    const invitee = address('unsubscriber');
    const { invite } = await inviter();
    expect((await invite(invitee)).status).toBe(303);
    const [mail] = await mailsArrived(invitee, 1);
    expect(header(mail!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const link = /^<(http\S+)>$/.exec(header(mail!, 'list-unsubscribe') ?? '')?.[1];
    expect(link).toMatch(/\/invitations\/unsubscribe\?token=/);
    expect(findPart(readMimeMessage(mail!.raw), 'text/plain')!.body).toContain(
      `To receive no more invitations from this Formward, from any account: ${link}`,
    );

    // For people: a page with a button, changing nothing.
    const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
    const page = await request('GET', `${t.stack.url}${pathOf(link!)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Stop all invitations to ${invitee}`);
    // As mail providers post it: cross-site, no cookie, no CSRF token.
    const oneClick = () =>
      request('POST', `${t.stack.url}${pathOf(link!)}`, {
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://mail.example',
        },
        body: 'List-Unsubscribe=One-Click',
      });
    expect((await oneClick()).status).toBe(200);
    expect((await oneClick()).status).toBe(200); // idempotent

    const refused = await (await inviter()).invite(invitee.toUpperCase());
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('cannot be invited now');
    expect(await mailsArrived(invitee, 1)).toHaveLength(1);
    // The opt-out is kept as a keyed hash, not as the address.
    const kept = await t.stack.sql('select * from invitation_opt_outs');
    expect(JSON.stringify(kept)).not.toContain(invitee);

    // A token this service did not seal, or a recipient mail's token, is not a valid link.
    const forged = await request('POST', `${t.stack.url}/invitations/unsubscribe?token=abc`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(forged.status).toBe(400);
  });

  it('invitations at once cannot pass INVITATIONS_PER_HOUR', async () => {
    const { invite, tenant } = await inviter();
    const invitees = Array.from({ length: 8 }, (_, n) => address(`burst${n}`));
    const answers = await Promise.all(invitees.map((email) => invite(email)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([303, 303, 303, 409, 409, 409, 409, 409]);
    for (const res of answers.filter((r) => r.status === 409))
      expect(res.text).toContain('INVITATIONS_PER_HOUR');
    const stored = await t.stack.sql('select 1 from invitations where account_id = ?', [
      tenant.accountId,
    ]);
    expect(stored).toHaveLength(3);
    await eventually(async () => invitees.filter((to) => mailsTo(to).length > 0).length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(invitees.filter((to) => mailsTo(to).length > 0)).toHaveLength(3);
  });
});
