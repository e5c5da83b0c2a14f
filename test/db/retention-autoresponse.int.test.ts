import { describe, expect, it } from 'vitest';
import { deleteDeliveredSubmission } from '../../src/db/sql/retention';
import { storeBareSubmission, useScratchDatabase } from '../support/scratch-database';

// delete_after_delivery (docs/retention.md) beside the autoresponse (docs/autoresponse.md): the
// autoresponse's records have no plugin; they are the submitter's courtesy mail, not a delivery.

describe('delete after delivery, with an autoresponse', () => {
  const db = useScratchDatabase();
  let form: { accountId: string; formId: string };
  let pluginId: string | null = null;

  const submission = async () => {
    form ??= await db.accountWithForm('aretentionauto01');
    await db.sql('update forms set delete_after_delivery = true where id = ?', [form.formId]);
    return storeBareSubmission(db.orm.em.fork(), form, { email: 'jane@example.org' });
  };
  const webhook = async () => {
    if (pluginId) return pluginId;
    const [row] = await db.sql<{ id: string }>(
      `insert into plugins (form_id, plugin_type, name, config, created_at)
       values (?, 'webhook', 'hook', '{"url":"https://example.com/"}', now() - interval '1 day')
       returning id`,
      [form.formId],
    );
    return (pluginId = String(row!.id));
  };
  const record = (submissionId: string, plugin: string | null, status: string, n: number) =>
    db.sql(
      `insert into delivery_attempts (delivery_id, submission_id, plugin_id, plugin_type, attempt,
          status, duration_ms, started_at, finished_at)
       values (?, ?, ?, ?, 1, ?, 10, now() + make_interval(secs => ?), now() + make_interval(secs => ?))`,
      [
        `dlv_${submissionId}_${plugin ?? 'auto'}`,
        submissionId,
        plugin,
        plugin ? null : 'autoresponse',
        status,
        n,
        n,
      ],
    );
  const deleted = (id: string) => deleteDeliveredSubmission(db.orm.em.fork(), id);

  it('deletes a delivered submission whose autoresponse was skipped or failed', async () => {
    for (const status of ['skipped', 'failed']) {
      const id = await submission();
      await record(id, await webhook(), 'succeeded', 1);
      await record(id, null, status, 2);
      expect(await deleted(id)).toBe(true);
    }
  });

  it('keeps it while its autoresponse is still retrying, and deletes it once that settled', async () => {
    const id = await submission();
    await record(id, await webhook(), 'succeeded', 1);
    await record(id, null, 'pending_retry', 2);
    expect(await deleted(id)).toBe(false);
    await db.sql(
      `update delivery_attempts set status = 'succeeded' where submission_id = ? and plugin_id is null`,
      [id],
    );
    expect(await deleted(id)).toBe(true);
  });

  it('keeps one that only an autoresponse went out for (delivered nowhere)', async () => {
    await db.sql('update plugins set deleted_at = now() where form_id = ?', [form.formId]);
    const id = await submission();
    await record(id, null, 'succeeded', 1);
    expect(await deleted(id)).toBe(false);
  });
});
