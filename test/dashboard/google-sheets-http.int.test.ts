import { describe, expect, it } from 'vitest';
import { request } from '../support/api-client';
import { createServiceAccountKey } from '../support/fake-google';
import { useTestStack } from '../support/fixture';
import { openAppSession, postForm } from './dashboard-support';

// Adding a Google Sheets plugin on the form's plugin page: a bad key refused next to its
// field and never sent back, a good one stored sealed, the page showing the account's address.

const t = useTestStack({ form: { name: 'Sheets form' } });
const ID = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';

describe('the Google Sheets add form', () => {
  it('refuses a bad key with its field error, then adds a good one and shows only its address', async () => {
    const app = await openAppSession(t.stack.url, t.email, t.password);
    const post = (fields: Record<string, string>) =>
      postForm(
        t.stack.url,
        `/app/forms/${t.form.id}/plugins`,
        { cookie: app.cookie, csrf: app.csrf },
        fields,
      );
    const key = createServiceAccountKey('rows@formward-test.iam.gserviceaccount.com');
    const keyLine = key.file.private_key.split('\n')[1]!;

    const broken = key.json.slice(0, -20);
    const refused = await post({
      type: 'google_sheets',
      service_account_key: broken,
      spreadsheet_id: ID,
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('is not valid JSON; paste the whole key file, braces included');
    expect(refused.text).toContain(`value="${ID}"`);
    expect(refused.text).not.toContain(keyLine);

    const created = await post({
      type: 'google_sheets',
      service_account_key: key.json,
      spreadsheet_id: `https://docs.google.com/spreadsheets/d/${ID}/edit#gid=0`,
      sheet_name: 'Leads',
    });
    expect(created.status).toBe(303);
    const [row] = await t.stack.sql<{ config: Record<string, unknown> }>(
      `select config from plugins where form_id = ? and plugin_type = 'google_sheets'`,
      [t.form.id],
    );
    expect(row!.config).toMatchObject({
      client_email: 'rows@formward-test.iam.gserviceaccount.com',
      spreadsheet_id: ID,
      sheet_name: 'Leads',
    });
    expect(JSON.stringify(row!.config)).not.toContain(keyLine);

    const page = await request('GET', `${t.stack.url}/app/forms/${t.form.id}/plugins`, {
      cookie: app.cookie,
    });
    expect(page.text).toContain('rows@formward-test.iam.gserviceaccount.com');
    expect(page.text).toContain(ID);
    expect(page.text).not.toContain(keyLine);
    const answer = await request('GET', `${t.stack.url}/api/forms/${t.form.id}/plugins`, {
      key: t.adminKey,
    });
    expect(answer.text).toContain('rows@formward-test.iam.gserviceaccount.com');
    expect(answer.text).toContain('••••••••');
    expect(answer.text).not.toContain(keyLine);
  });
});
