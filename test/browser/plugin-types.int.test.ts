import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PLUGIN_TYPE_LIST } from '../../src/plugins/registry';
import { markRecipientConfirmed } from '../../src/domain/recipients/confirmations';
import type { PluginTypeKey } from '../../workflows/delivery-kinds';
import { runAxe } from '../support/axe';
import {
  launchWatchedChromium,
  readmeShotOf,
  signInWith,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { waitForAttempts } from '../support/delivery-attempts';
import { startFakeAirtable } from '../support/fake-airtable';
import { startFakeGoogle } from '../support/fake-google';
import { startFakeNotion } from '../support/fake-notion';
import { startFakeTeams } from '../support/fake-teams';
import { startFakeTelegram } from '../support/fake-telegram';
import { useTestStack, type TestKit } from '../support/fixture';
import { startHttpsReceiver } from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';
import { startSmtpSink } from '../support/smtp-sink';
import type { TestCertificates } from '../support/test-ca';

// Every plugin type of the registry on the form's plugins page in Chromium: its add form has
// the declaration's fields with their labels and axe-core finds no WCAG 2.2 AA violation on
// the page. Each type in DELIVERIES is then added through that form, a submission goes to a
// real receiver (HTTPS on 127.0.0.1 with the test CA, or the SMTP sink), and its line in the
// plugin's delivery log reads "succeeded". With UPDATE_SCREENSHOTS=1 the add form and the log
// line are saved as docs/screenshots/plugin-<key>.png and plugin-<key>-delivery.png
// (docs/plugins.md shows them). Last, a plugin's settings page: a rule and chosen fields, a dry
// run over the form's submissions, then saved (docs/screenshots/plugin-settings.png).

/** What a plugin of one type delivers to in this test, once started. */
type Destination = {
  /** What the stack needs to reach it (a provider's API address, SMTP_URL). */
  env?: Record<string, string>;
  /** The add form's values that point the plugin at it (secrets included). */
  fields: Record<string, string>;
  /** What the account needs first (a confirmed e-mail recipient). */
  prepare?(t: TestKit): Promise<void>;
  /** Resolves once it has received the delivery (for a provider: a row, record or page of it). */
  arrived(submissionId: string): Promise<void>;
  close(): Promise<void>;
};

/**
 * How each type is shown delivering: a type joins with one entry that starts its receiver
 * (for a provider's API, its fake from test/support/fake-*.ts, with the `*_API_URL` env that
 * points the stack at it). Started before the stack; each is used by one plugin of one form.
 */
const DELIVERIES: Partial<Record<PluginTypeKey, (ca: TestCertificates) => Promise<Destination>>> = {
  webhook: (ca) => httpsDestination(ca, (url) => ({ url: `${url}/hooks/formward` })),
  slack: (ca) => httpsDestination(ca, (url) => ({ url: `${url}/services/T000/B000/XXXX` })),
  discord: (ca) => httpsDestination(ca, (url) => ({ url: `${url}/api/webhooks/1/token` })),
  email: async () => {
    const sink = await startSmtpSink();
    const to = 'sales@example.com';
    return {
      env: { SMTP_URL: sink.url() },
      fields: { recipients: to, subject: 'New lead: {field:name}' },
      // A recipient the account confirmed (test/mail/recipients.int.test.ts follows the real link).
      prepare: async (t) => {
        await markRecipientConfirmed(t.stack.ctx.orm.em.fork(), t.accountId, to);
      },
      arrived: () => until(() => sink.messages.some((m) => m.rcptTo.includes(to))),
      close: () => sink.close(),
    };
  },
  teams: async (ca) => {
    const teams = await startFakeTeams(ca);
    return {
      fields: { url: teams.url },
      arrived: () => until(() => teams.accepted.length > 0),
      close: teams.close,
    };
  },
  telegram: async (ca) => {
    const chat = '-1001234567890';
    const telegram = await startFakeTelegram(ca, [chat]);
    return {
      env: { TELEGRAM_API_URL: telegram.url },
      fields: { token: telegram.token, chat_id: chat },
      arrived: () => until(() => telegram.sent.length > 0),
      close: telegram.close,
    };
  },
  google_sheets: async (ca) => {
    const google = await startFakeGoogle(ca);
    const account = 'formward@leads-project.iam.gserviceaccount.com';
    const key = google.addServiceAccount(account);
    const spreadsheet = '1FormwardLeadsSpreadsheet0123456789';
    google.addSpreadsheet(spreadsheet, [account]);
    return {
      env: google.env,
      fields: {
        service_account_key: key.json,
        spreadsheet_id: `https://docs.google.com/spreadsheets/d/${spreadsheet}/edit#gid=0`,
      },
      // The header row, then the submission's row under it.
      arrived: (id) =>
        until(() => {
          const [header, ...rows] = google.rows(spreadsheet);
          const row = rows.find((cells) => cells[0] === id);
          return row !== undefined && row[header!.indexOf('name')] === 'Ada Lovelace';
        }),
      close: google.close,
    };
  },
  airtable: async (ca) => {
    const token = `patFormwardLeads01.${'0a1b2c3d4e5f6789'.repeat(4)}`;
    const airtable = await startFakeAirtable(ca, {
      token,
      tables: [
        {
          base: 'appFormwardLeads1',
          id: 'tblFormwardLeads1',
          name: 'Leads',
          fields: ['name', 'email', 'message', 'Submission ID', 'Received at'],
        },
      ],
    });
    return {
      env: { AIRTABLE_API_URL: airtable.url },
      fields: { token, base: 'appFormwardLeads1', table: 'Leads' },
      arrived: (id) =>
        until(() =>
          airtable.records.some(
            (r) => r.fields['Submission ID'] === id && r.fields.name === 'Ada Lovelace',
          ),
        ),
      close: airtable.close,
    };
  },
  notion: async (ca) => {
    const token = `ntn_${'FormwardNotionLeads'.repeat(3)}`;
    const database = '0123abcd-0123-4567-89ab-0123456789ab';
    const notion = await startFakeNotion(ca, {
      token,
      databases: [
        {
          id: database,
          properties: {
            Name: { type: 'title' },
            Email: { type: 'email' },
            'Received at': { type: 'date' },
          },
        },
      ],
    });
    const text = (page: (typeof notion.pages)[number]) =>
      page.children.map((b) => b.paragraph?.rich_text.map((r) => r.text.content).join('') ?? '');
    return {
      env: { NOTION_API_URL: notion.url },
      fields: {
        token,
        database: `https://www.notion.so/acme/Leads-${database.replaceAll('-', '')}`,
      },
      // A page titled with the name, its id in the last paragraph.
      arrived: (id) =>
        until(() =>
          notion.pages.some(
            (page) =>
              page.databaseId === database &&
              JSON.stringify(page.properties.Name).includes('Ada Lovelace') &&
              text(page).some((line) => line.startsWith(`Submission: ${id}`)),
          ),
        ),
      close: notion.close,
    };
  },
};

/** A receiver of the HTTPS kind (webhook, Slack, Discord): it answers 200 to every post. */
async function httpsDestination(
  ca: TestCertificates,
  fields: (url: string) => Record<string, string>,
): Promise<Destination> {
  const receiver = await startHttpsReceiver(ca, () => ({ status: 200, body: 'ok' }));
  return {
    fields: fields(receiver.url),
    arrived: async () => void (await receiver.waitFor(1)),
    close: () => receiver.close(),
  };
}

async function until(check: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the delivery did not arrive');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const destinations = new Map<PluginTypeKey, Destination>();
beforeAll(async () => {
  for (const [key, start] of Object.entries(DELIVERIES))
    destinations.set(key as PluginTypeKey, await start!(inject('stack').certificates));
});
afterAll(async () => {
  await Promise.all([...destinations.values()].map((d) => d.close()));
});

const t = useTestStack(() => ({
  worker: true,
  form: { name: 'Contact us' },
  env: Object.assign(
    { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' },
    ...[...destinations.values()].map((d) => d.env ?? {}),
  ) as Record<string, string>,
}));

let browser: WatchedChromium;
let page: Page;
beforeAll(async () => {
  browser = await launchWatchedChromium();
  page = await browser.context.newPage();
  browser.watch(page);
  await page.setViewportSize({ width: 1100, height: 900 });
  await signInWith(page, t.stack.url, t);
});
afterAll(async () => {
  await browser?.close();
});

const pluginsPage = (formId: string) => `${t.stack.url}/app/forms/${formId}/plugins`;

async function submitAndLoad(selector: string) {
  await Promise.all([page.waitForLoadState('load'), page.click(selector)]);
}

describe.each(PLUGIN_TYPE_LIST.map((type) => ({ key: type.key, type })))(
  'the $key plugin type in a browser',
  ({ key, type }) => {
    it("has its add form: the declaration's fields, labelled, and no axe violation", async () => {
      await page.goto(pluginsPage(t.form.id));
      const section = page.locator(`#add-${key}`);
      await expect.poll(() => section.count()).toBe(1);
      expect(await section.locator('h2').textContent()).toBe(`Add ${type.noun}`);
      expect(await section.locator('input[name="type"]').inputValue()).toBe(key);
      for (const field of type.fields) {
        // The label names the input it wraps: what a screen reader announces.
        const input = section.getByLabel(field.label, { exact: true });
        expect(await input.getAttribute('name'), field.name).toBe(field.name);
        const required = (await input.getAttribute('required')) !== null;
        expect(required, field.name).toBe(field.required);
        const multiline = field.input === 'list' || field.input.endsWith('textarea');
        const tag = multiline ? 'textarea' : 'input';
        expect(await section.locator(`${tag}[name="${field.name}"]`).count()).toBe(1);
        if (field.input === 'secret') expect(await input.getAttribute('type')).toBe('password');
      }
      expect(await section.getByLabel('Name (optional)').getAttribute('name')).toBe('name');
      const axe = await runAxe(page);
      expect(axe.violations).toEqual([]);
      expect(browser.cspViolations).toEqual([]);
      await readmeShotOf(section, `plugin-${key}`);
    });

    const start = DELIVERIES[key];
    if (!start) {
      it.todo(`delivers a submission (add a "${key}" entry to DELIVERIES)`);
      return;
    }
    it(
      'is added through that form and delivers a submission, seen in its delivery log',
      { timeout: 90_000 },
      async () => {
        const destination = destinations.get(key)!;
        await destination.prepare?.(t);
        const form = await t.api.createForm({ name: `Leads for ${type.label}` });
        await page.goto(pluginsPage(form.id));
        const section = page.locator(`#add-${key}`);
        for (const [name, value] of Object.entries(destination.fields))
          await section.locator(`[name="${name}"]`).fill(value);
        await section.locator('input[name="name"]').fill(`Sales team (${type.label})`);
        await submitAndLoad(`#add-${key} button[type="submit"]`);
        expect(page.url()).toBe(pluginsPage(form.id));
        const row = page.locator('table.webhooks tbody tr', { hasText: 'Sales team' });
        expect(await row.count()).toBe(1);
        expect(await row.locator('td').first().textContent()).toBe(type.label);

        const submissionId = await submitJson(form, {
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          message: 'Could we talk about the analytical engine?',
        });
        await destination.arrived(submissionId);
        const [attempt] = await waitForAttempts(t.stack, submissionId, 1);
        expect(attempt!.status).toBe('succeeded');

        await submitAndLoad('table.webhooks a[href$="/deliveries"]');
        const line = page.locator('table.deliveries tr.status-succeeded');
        expect(await line.count()).toBe(1);
        expect(await line.locator('td').nth(1).textContent()).toBe(submissionId);
        expect(browser.cspViolations).toEqual([]);
        await readmeShotOf(page.locator('main'), `plugin-${key}-delivery`);
      },
    );
  },
);

describe('the plugin settings page in a browser', () => {
  it('dry-runs a rule as typed, then saves it with the chosen fields', async () => {
    const form = await t.api.createForm({ name: 'Enquiries' });
    for (const [name, topic] of [
      ['Ada Lovelace', 'Sales'],
      ['Grace Hopper', 'support'],
      ['Alan Turing', 'sales'],
      ['Katherine Johnson', 'billing'],
    ])
      await submitJson(form, { name, email: 'someone@example.com', topic, message: 'Hello' });
    // Added after the submissions, so it is sent none of them: the dry run looks back at them.
    const plugin = await t.api.addWebhook(form.id, 'https://127.0.0.1:9/hooks/crm');

    await page.goto(pluginsPage(form.id));
    await submitAndLoad('table.webhooks a[href$="/settings"]');
    const settingsPage = `${pluginsPage(form.id)}/${plugin.id}/settings`;
    expect(page.url()).toBe(settingsPage);
    expect(
      await page.getByRole('link', { name: 'Plugins of Enquiries' }).getAttribute('href'),
    ).toBe(`/app/forms/${form.id}/plugins`);
    await page.getByLabel('Field of rule 1').fill('topic');
    await page.getByLabel('Test of rule 1').selectOption('equals');
    await page.getByLabel('Value of rule 1').fill('sales');
    // Each field's checkbox is named by its label.
    for (const field of ['name', 'email']) await page.getByLabel(field, { exact: true }).check();
    await submitAndLoad('button[value="dry_run"]');
    const dryRun = page.locator('#dry-run');
    expect(await dryRun.locator('strong').textContent()).toBe('2 of 4');
    expect(await dryRun.textContent()).toContain('as typed (not saved)');
    // The page comes back as typed: the rule and the checked fields are still there.
    expect(await page.getByLabel('Value of rule 1').inputValue()).toBe('sales');
    expect(await page.locator('input[name="include"]:checked').count()).toBe(2);
    expect((await runAxe(page)).violations).toEqual([]);
    expect(browser.cspViolations).toEqual([]);
    await readmeShotOf(page.locator('main'), 'plugin-settings');

    await submitAndLoad('button[value="save"]');
    expect(page.url()).toBe(settingsPage);
    expect(await dryRun.textContent()).toContain('2 of 4');
    expect(await dryRun.textContent()).toContain('as saved');
    const [stored] = await t.stack.sql<{ conditions: unknown; include_fields: unknown }>(
      'select conditions, include_fields from plugins where id = ?',
      [plugin.id],
    );
    expect(stored).toEqual({
      conditions: { match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'sales' }] },
      include_fields: ['name', 'email'],
    });
  });
});
