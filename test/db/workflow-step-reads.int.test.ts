import { beforeAll, describe, expect, it } from 'vitest';
import {
  selectAutoresponseRow,
  selectDeliverableRow,
  selectDeliveryPlanRow,
  selectNotificationRow,
} from '../../src/db/sql/workflow-step-reads';
import { useScratchDatabase } from '../support/scratch-database';

// src/db/sql/workflow-step-reads.ts: what a workflow step reads, in one statement each.
describe('the reads of the workflow steps', () => {
  const db = useScratchDatabase();
  const { sql } = db;
  let accountId: string;
  let formId: string;
  let submissionId: string;

  const addPlugin = async (values: string) => {
    const [row] = await sql<{ id: string }>(
      `insert into plugins (form_id, plugin_type, name, enabled, config, signing_secret,
         deleted_at, consecutive_failures, failing_since, last_success_at, disabled_reason)
       values (?, ${values}) returning id`,
      [formId],
    );
    return String(row!.id);
  };

  beforeAll(async () => {
    const [account] = await sql<{ id: string }>(
      `insert into accounts (name) values ('R') returning id`,
    );
    const [form] = await sql<{ id: string }>(
      `insert into forms (account_id, name, endpoint_token, notification_email_addresses)
       values (?, 'Reads', 'areads0000000001', '{me@example.com}') returning id`,
      [account!.id],
    );
    accountId = String(account!.id);
    formId = String(form!.id);
    const [submission] = await sql<{ id: string }>(
      `insert into submissions (form_id, account_id, payload_json, source_ip)
       values (?, ?, '{"a":1}', '192.0.2.1') returning id`,
      [formId, account!.id],
    );
    submissionId = String(submission!.id);
  });

  it('plans with the form: its plugins by id (deleted ones left out), notify, the test mark', async () => {
    const first = await addPlugin(`'webhook', 'a', true, '{}', null, null, 0, null, null, null`);
    const second = await addPlugin(
      `'slack', 'b', false, '{}', null, null, 0, null, null, 'by the account'`,
    );
    await addPlugin(`'webhook', 'gone', true, '{}', null, now(), 0, null, null, null`);
    expect(await selectDeliveryPlanRow(db.orm.em.fork(), submissionId)).toEqual({
      notify: true,
      isTest: false,
      autorespond: false,
      deleteAfterDelivery: false,
      // The payload is read only when an enabled plugin has conditions to match it against.
      payload: null,
      plugins: [
        { id: first, pluginType: 'webhook', enabled: true, disabledReason: null, conditions: null },
        {
          id: second,
          pluginType: 'slack',
          enabled: false,
          disabledReason: 'by the account',
          conditions: null,
        },
      ],
    });
    const conditions = { match: 'all', rules: [{ field: 'a', op: 'equals', value: '1' }] };
    await sql('update plugins set conditions = ?::jsonb where id = ?', [
      JSON.stringify(conditions),
      first,
    ]);
    expect(await selectDeliveryPlanRow(db.orm.em.fork(), submissionId)).toMatchObject({
      payload: { a: 1 },
      plugins: [
        { id: first, conditions },
        { id: second, conditions: null },
      ],
    });
    await sql('update plugins set conditions = null where id = ?', [first]);
    expect(await selectDeliveryPlanRow(db.orm.em.fork(), '999999')).toBeNull();
    await sql('update forms set delete_after_delivery = true where id = ?', [formId]);
    expect(await selectDeliveryPlanRow(db.orm.em.fork(), submissionId)).toMatchObject({
      deleteAfterDelivery: true,
    });
    await sql('update forms set delete_after_delivery = false where id = ?', [formId]);
  });

  it('reads a plugin and the submission it sends, and whether a success would change the plugin', async () => {
    const stamped = await addPlugin(
      `'webhook', 's', true, '{"url":"https://example.com/h"}', 'sealed', null, 0, null, now(), null`,
    );
    const row = await selectDeliverableRow(db.orm.em.fork(), stamped, submissionId);
    expect(row?.plugin).toEqual({
      id: stamped,
      pluginType: 'webhook',
      enabled: true,
      deleted: false,
      config: { url: 'https://example.com/h' },
      signingSecret: 'sealed',
      recentlyHealthy: true,
      includeFields: null,
    });
    expect(row?.submission).toMatchObject({
      id: submissionId,
      endpoint_token: 'areads0000000001',
      name: 'Reads',
      source_ip: '192.0.2.1',
      payload_json: { a: 1 },
    });

    for (const unhealthy of [
      `'webhook', 'old', true, '{}', null, null, 0, null, now() - interval '2 seconds', null`,
      `'webhook', 'never', true, '{}', null, null, 0, null, null, null`,
      `'webhook', 'failing', true, '{}', null, null, 1, now(), now(), null`,
    ]) {
      const id = await addPlugin(unhealthy);
      const read = await selectDeliverableRow(db.orm.em.fork(), id, submissionId);
      expect(read?.plugin.recentlyHealthy).toBe(false);
    }

    expect(
      (await selectDeliverableRow(db.orm.em.fork(), stamped, '999999'))?.submission,
    ).toBeNull();
    expect(await selectDeliverableRow(db.orm.em.fork(), '999999', submissionId)).toBeNull();
  });

  it("reads what a type asks besides in the same statement: the uploads, the form's field names", async () => {
    const plugin = await addPlugin(`'email', 'e', true, '{}', null, null, 0, null, null, null`);
    const plain = await selectDeliverableRow(db.orm.em.fork(), plugin, submissionId);
    expect(plain?.files).toBeNull();
    expect(plain).not.toHaveProperty('formFieldNames');

    const extras = { files: true, formFieldNames: true };
    const none = await selectDeliverableRow(db.orm.em.fork(), plugin, submissionId, extras);
    expect(none).toMatchObject({ files: [], formFieldNames: null }); // free-form, no uploads
    const [file] = await sql<{ id: string }>(
      `insert into submission_files (submission_id, form_id, account_id, field_name, filename,
         content_type, size, content)
       values (?, ?, ?, 'cv', 'cv.txt', 'text/plain', 2, 'hi') returning id`,
      [submissionId, formId, accountId],
    );
    await sql(`update forms set fields = ?::jsonb where id = ?`, [
      JSON.stringify([
        { name: 'a', label: 'A', type: 'text' },
        { name: 'b', label: 'B', type: 'text' },
      ]),
      formId,
    ]);
    try {
      const read = await selectDeliverableRow(db.orm.em.fork(), plugin, submissionId, extras);
      const files = [
        {
          id: String(file!.id),
          fieldName: 'cv',
          filename: 'cv.txt',
          contentType: 'text/plain',
          size: 2,
        },
      ];
      expect(read).toMatchObject({ files, formFieldNames: ['a', 'b'] });
      expect((await selectNotificationRow(db.orm.em.fork(), submissionId))?.files).toEqual(files);
    } finally {
      await sql('delete from submission_files where submission_id = ?', [submissionId]);
      await sql('update forms set fields = null where id = ?', [formId]);
    }
  });

  it('reads the submission and its form for the autoresponse and the notification e-mail', async () => {
    const submission = {
      id: submissionId,
      createdAt: expect.any(Date),
      isSpam: false,
      sourceIp: '192.0.2.1',
      payloadJson: { a: 1 },
      specialNormalized: null,
    };
    const form = { id: formId, accountId, name: 'Reads' };
    expect(await selectNotificationRow(db.orm.em.fork(), submissionId)).toEqual({
      submission,
      form: { ...form, notificationEmailAddresses: ['me@example.com'] },
      files: [],
    });
    expect(await selectAutoresponseRow(db.orm.em.fork(), submissionId)).toEqual({
      submission,
      // Whether the mail carries a manage link (docs/manage-links.md).
      form: { ...form, autoresponse: null, submitterAccess: 'none' },
    });
    const autoresponse = { subject: 'Thanks', body: 'Hello', reply_to: null };
    await sql('update forms set autoresponse = ?::jsonb where id = ?', [
      JSON.stringify(autoresponse),
      formId,
    ]);
    expect((await selectAutoresponseRow(db.orm.em.fork(), submissionId))?.form).toMatchObject({
      autoresponse,
    });
    await sql('update forms set autoresponse = null where id = ?', [formId]);
    expect(await selectAutoresponseRow(db.orm.em.fork(), '999999')).toBeNull();
    expect(await selectNotificationRow(db.orm.em.fork(), '999999')).toBeNull();
  });
});
