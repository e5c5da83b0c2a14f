import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  launchWatchedChromium,
  linkFromMail,
  readmeShot,
  signInWith,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

// A team in two real Chromiums (owner and colleague) with a real SMTP sink: the owner invites
// a viewer, the colleague signs up from the link and sees no edit controls, is promoted to
// admin and changes a webhook, then is removed and their next click lands on sign-in.
// Screenshots go to test/artifacts/team-*.png; no page may report a CSP violation.

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
});

const t = useTestStack(() => ({ env: { SMTP_URL: sink.url() } }));
let ownerBrowser: WatchedChromium;
let colleagueBrowser: WatchedChromium;

beforeAll(async () => {
  ownerBrowser = await launchWatchedChromium();
  colleagueBrowser = await launchWatchedChromium();
});
afterAll(async () => {
  await ownerBrowser?.close();
  await colleagueBrowser?.close();
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS, `team-${name}.png`), fullPage: true });

/** Clicks a submit button and waits for the page the post leads to. */
async function submit(page: Page, selector: string) {
  await Promise.all([page.waitForLoadState('load'), page.click(selector)]);
  await page.waitForLoadState('load');
}

describe('a team in the browser', () => {
  it(
    'invite a viewer, sign up from the link, promote, change a webhook, remove',
    { timeout: 180_000 },
    async () => {
      const form = await t.api.createForm({ name: 'Team contact form' });
      await t.api.addWebhook(form.id, 'https://93.184.216.34/hook');
      const colleague = `grace-${Date.now()}@example.com`;
      const owner = await ownerBrowser.context.newPage();
      ownerBrowser.watch(owner);
      await signInWith(owner, t.stack.url, { email: t.email, password: t.password });

      // The owner invites a viewer.
      await owner.goto(`${t.stack.url}/app/team`);
      await owner.fill('form[action="/app/team/invite"] input[name="email"]', colleague);
      await owner.selectOption('form[action="/app/team/invite"] select[name="role"]', 'viewer');
      await submit(owner, 'form[action="/app/team/invite"] button');
      expect(await owner.textContent('.flash')).toContain('Invitation sent');
      expect(await owner.textContent(`tr[data-invitation="${colleague}"]`)).toContain('viewer');
      await shot(owner, '01-invited');
      await readmeShot(owner, 'team', true);

      // The colleague signs up from the link in the mail.
      const link = await linkFromMail(sink, colleague, '/invite?token=', 0);
      const page = await colleagueBrowser.context.newPage();
      colleagueBrowser.watch(page);
      await page.goto(link);
      await shot(page, '02-invitation');
      await page.fill('input[name="name"]', 'Grace');
      await page.fill('input[name="password"]', 'compiler pioneer 1952');
      await Promise.all([
        page.waitForURL(`${t.stack.url}/app`),
        page.click('form[action="/invite/signup"] button'),
      ]);
      expect(await page.textContent('.flash')).toContain('Invitation accepted');

      // A viewer: the forms, without edit controls.
      await page.goto(`${t.stack.url}/app/forms`);
      expect(await page.textContent('main')).toContain('Team contact form');
      expect(await page.locator('a[href="/app/forms/new"]').count()).toBe(0);
      await page.goto(`${t.stack.url}/app/forms/${form.id}/plugins`);
      expect(await page.locator('form[action$="/disable"]').count()).toBe(0);
      await shot(page, '03-viewer-webhooks');
      // Typing the address of a change page by hand is refused, naming the role.
      await page.goto(`${t.stack.url}/app/forms/new`);
      expect(await page.textContent('main')).toContain('is viewer, which does not allow this');

      // The owner promotes them to admin.
      await owner.goto(`${t.stack.url}/app/team`);
      const row = `tr[data-member="${colleague}"]`;
      await owner.selectOption(`${row} select[name="role"]`, 'admin');
      await submit(owner, `${row} form[action$="/role"] button`);
      expect(await owner.textContent(row)).toContain('admin');
      await shot(owner, '04-promoted');

      // Now an admin: they disable the webhook.
      await page.goto(`${t.stack.url}/app/forms/${form.id}/plugins`);
      await submit(page, 'form[action$="/disable"] button');
      expect(await page.textContent('.flash')).toContain('Webhook disabled');
      await shot(page, '05-admin-changed-webhook');
      // And create an API key, which the removal lists and revokes.
      await page.goto(`${t.stack.url}/app/keys`);
      await page.fill('input[name="name"]', 'Colleague export');
      await submit(page, 'form[action="/app/keys"] button[type="submit"]');
      expect(await page.textContent('#new-key')).toMatch(/^frk_/);

      // The owner removes them, seeing their key first; their next click lands on sign-in.
      await owner.goto(`${t.stack.url}/app/team`);
      await submit(owner, `${row} a[href$="/remove"]`);
      expect(await owner.textContent('table.member-keys')).toContain('Colleague export');
      expect(await owner.isChecked('input[name="keep_keys"]')).toBe(false);
      await shot(owner, '06-removal-lists-keys');
      await submit(owner, 'form[action$="/remove"] button[type="submit"]');
      expect(await owner.textContent('.flash.flash-ok')).toContain('Member removed');
      expect(await owner.textContent('.key-change')).toContain(
        `1 API key that ${colleague} created was revoked`,
      );
      expect(await owner.locator(row).count()).toBe(0);
      await shot(owner, '07-removed');
      await Promise.all([
        page.waitForURL(/\/login\?next=/),
        page.click('nav a[href="/app/forms"]'),
      ]);
      expect(await page.textContent('h1')).toContain('Sign in');
      await shot(page, '08-signed-out');

      // The audit log shows each step, newest first, with who did it.
      await owner.goto(`${t.stack.url}/app/audit`);
      const rows = await owner.locator('table.audit tbody tr').allTextContents();
      const steps = rows.map((text) => text.replace(/\s+/g, ' '));
      const expected: [string, string, string][] = [
        ['member.removed', t.email, `${colleague} removed`],
        ['api_key.revoked', t.email, 'its creator was removed'],
        ['webhook.disabled', colleague, ''],
        ['member.role_changed', t.email, `${colleague} is now admin`],
        ['invitation.accepted', colleague, 'signed up from the invitation'],
        ['invitation.sent', t.email, `${colleague} as viewer`],
      ];
      const found = expected.map(([action]) => steps.findIndex((row) => row.includes(action)));
      expect(
        found.every((index) => index >= 0),
        steps.join('\n'),
      ).toBe(true);
      expect([...found].sort((a, b) => a - b)).toEqual(found);
      expected.forEach(([, actor, summary], n) => {
        expect(steps[found[n]!]).toContain(actor);
        expect(steps[found[n]!]).toContain(summary);
      });
      await shot(owner, '09-audit-log');
      await readmeShot(owner, 'audit-log');

      expect([...ownerBrowser.cspViolations, ...colleagueBrowser.cspViolations]).toEqual([]);
    },
  );

  it(
    'the invite page quotes a hostile account name under its own heading, cut short',
    { timeout: 120_000 },
    async () => {
      const inviter = await t.newTenant();
      const hostile =
        'URGENT \u202e<b>Security alert</b>: your PayPal account is suspended, verify now at ' +
        'https://paypa1.example/login or lose access '.repeat(4);
      await t.stack.sql('update accounts set name = ? where id = ?', [hostile, inviter.accountId]);
      const invitee = `hostile-${Date.now()}@example.com`;
      // Each browser starts signed out (the walk above may have left sessions).
      await ownerBrowser.context.clearCookies();
      await colleagueBrowser.context.clearCookies();
      const owner = await ownerBrowser.context.newPage();
      ownerBrowser.watch(owner);
      await signInWith(owner, t.stack.url, { email: inviter.email, password: inviter.password });
      await owner.goto(`${t.stack.url}/app/team`);
      await owner.fill('form[action="/app/team/invite"] input[name="email"]', invitee);
      await submit(owner, 'form[action="/app/team/invite"] button');
      expect(await owner.textContent('.flash')).toContain('Invitation sent');

      const page = await colleagueBrowser.context.newPage();
      colleagueBrowser.watch(page);
      await page.goto(await linkFromMail(sink, invitee, '/invite?token=', 0));
      await shot(page, '09-invitation-hostile-name');
      const heading = (await page.textContent('h1'))!;
      expect(heading).toBe('An invitation to a Formward account');
      const from = (await page.textContent('.invitation-from'))!.replace(/\s+/g, ' ');
      expect(from).toContain(`${inviter.email} invited ${invitee} to join the account named “`);
      // Plain text, one line, cut to 60 characters; the markup is shown, never rendered.
      const quoted = /named “([^”]*)”/.exec(from)![1]!;
      expect([...quoted]).toHaveLength(60);
      expect(quoted.endsWith('…')).toBe(true);
      expect(quoted).toContain('<b>Security alert</b>');
      expect(quoted).not.toContain('\u202e');
      expect(await page.locator('main b').count()).toBe(0);
      expect(await page.textContent('body')).not.toContain('or lose access');
      expect([...ownerBrowser.cspViolations, ...colleagueBrowser.cspViolations]).toEqual([]);
    },
  );
});
