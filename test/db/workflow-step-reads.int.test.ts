import { beforeAll, describe, expect, it } from 'vitest';
import { selectDeliverableRow, selectDeliveryPlanRow } from '../../src/db/sql/workflow-step-reads';
import { useScratchDatabase } from '../support/scratch-database';

// src/db/sql/workflow-step-reads.ts: what a workflow step reads, in one statement each.
describe('the reads of the workflow steps', () => {
  const db = useScratchDatabase();
  const { sql } = db;
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
});
