import { describe, expect, it } from 'vitest';
import { eraseSenderSubmissions } from '../../../src/domain/submissions/erase-sender';
import { useTestStack } from '../../support/fixture';
import { submitJson } from '../../support/ingest-requests';
import { auditEntries, dashboardOf, freshEm } from './use-case-stack';

// src/domain/submissions/erase-sender.ts called directly against the real database, and the
// dashboard's erase page, its only caller, recording the count and never the address.

const t = useTestStack({ form: { name: 'Erasure' } });

const remaining = (ids: string[]) =>
  t.stack.sql<{ id: string }>(
    `select id::text as id from submissions where id in (${ids.map(() => '?').join(', ')})`,
    ids,
  );

describe('eraseSenderSubmissions', () => {
  it('deletes every submission of the account from the address, spam included, and only those', async () => {
    const second = await t.api.createForm({ name: 'Second form' });
    const mine = [
      await submitJson(t.form, { email: 'Sender@Example.org', message: 'one' }),
      await submitJson(second, { email: 'sender@example.org ', message: 'two' }),
    ];
    await t.stack.sql('update submissions set is_spam = true where id = ?', [mine[1]]);
    const others = [await submitJson(t.form, { email: 'someone@example.org', message: 'kept' })];
    const otherTenant = await t.newTenant();
    const theirForm = await otherTenant.api.createForm({ name: 'Theirs' });
    others.push(await submitJson(theirForm, { email: 'sender@example.org', message: 'theirs' }));

    const result = await eraseSenderSubmissions(freshEm(t), t.stack.ctx, {
      accountId: t.accountId,
      email: 'SENDER@example.org',
    });
    expect(result).toEqual({ erased: 2, audit: { summary: 'erased 2 submissions of one sender' } });
    expect(await remaining(mine)).toEqual([]);
    expect((await remaining(others)).map((row) => row.id).sort()).toEqual([...others].sort());
  });

  it('the dashboard’s erase page records the count, never the address', async () => {
    await submitJson(t.form, { email: 'page@example.org', message: 'erase me' });
    const app = await dashboardOf(t);
    await app.post('/app/submissions/erase', { email: 'page@example.org', confirm: 'yes' });
    const entries = await auditEntries(t, 'submissions.erased');
    expect(entries).toEqual([
      {
        action: 'submissions.erased',
        target_id: null,
        summary: 'erased 1 submission of one sender',
      },
    ]);
  });
});
