import { describe, expect, it } from 'vitest';
import { LimitReachedError } from '../../../src/domain/budgets/limit-reached';
import type { FormField } from '../../../src/db/entities/form-fields';
import { createForm } from '../../../src/domain/forms/create-form';
import { FileFieldsRefusedError } from '../../../src/domain/forms/field-rules';
import { findAccountForm } from '../../../src/domain/forms/forms';
import {
  FormPlaceRefusedError,
  SlugTakenError,
  updateForm,
} from '../../../src/domain/forms/update-form';
import { expectAnswer, expectError } from '../../support/api-client';
import { useTestStack } from '../../support/fixture';
import { auditEntries, dashboardOf, freshEm } from './use-case-stack';

// src/domain/forms/create-form.ts and update-form.ts, called directly against the real
// database, and the rules they now give the API and the dashboard alike.

const t = useTestStack();

const FILE_FIELD: FormField = { name: 'cv', label: 'CV', type: 'file', required: false };

const formRow = async (id: string) =>
  (
    await t.stack.sql<{ name: string; accept_files: boolean; slug: string | null }>(
      'select name, accept_files, slug from forms where id = ?',
      [id],
    )
  )[0]!;

/** Whether the address has a confirmation request of the kit's account (a token to follow). */
const asked = async (address: string) =>
  (
    await t.stack.sql(
      `select 1 from recipient_confirmations
        where account_id = ? and address = ? and token_hash is not null`,
      [t.accountId, address],
    )
  ).length === 1;

describe('createForm', () => {
  it('stores the form, asks its recipients to confirm and names it for the audit log', async () => {
    const { form, audit } = await createForm(freshEm(t), t.stack.ctx, {
      accountId: t.accountId,
      settings: { name: 'Direct', notificationEmailAddresses: ['first@example.org'] },
    });
    expect(await formRow(form.id)).toMatchObject({ name: 'Direct', accept_files: false });
    expect(await asked('first@example.org')).toBe(true);
    expect(audit).toEqual({ targetId: form.id, summary: 'created form “Direct”' });
  });

  it('refuses a file field without uploads, and a form past the owner’s budget', async () => {
    const create = (name: string, fields: FormField[] | undefined, deps = t.stack.ctx) =>
      createForm(freshEm(t), deps, { accountId: t.accountId, settings: { name, fields } });
    await expect(create('No uploads', [FILE_FIELD])).rejects.toBeInstanceOf(FileFieldsRefusedError);
    const config = t.stack.ctx.config;
    const full = {
      ...t.stack.ctx,
      config: { ...config, budgets: { ...config.budgets, formsPerAccount: 1 } },
    };
    await expect(create('Over budget', undefined, full)).rejects.toBeInstanceOf(LimitReachedError);
    const stored = await t.stack.sql(
      `select 1 from forms where account_id = ? and name in ('No uploads', 'Over budget')`,
      [t.accountId],
    );
    expect(stored).toEqual([]);
  });
});

describe('updateForm', () => {
  it('applies the real changes, forgets ingest’s copy and asks new recipients', async () => {
    const em = freshEm(t);
    const { form } = await createForm(em, t.stack.ctx, {
      accountId: t.accountId,
      settings: { name: 'Before' },
    });
    expect((await t.stack.ctx.forms.byToken(() => freshEm(t), form.endpointToken))?.name).toBe(
      'Before',
    );
    const changes = { name: 'After', notificationEmailAddresses: ['second@example.org'] };
    const updated = await updateForm(em, t.stack.ctx, form, changes);
    expect(updated.changed.sort()).toEqual(['name', 'notificationEmailAddresses']);
    expect(updated.audit).toEqual({
      skip: false,
      summary: 'changed name, notification_email_addresses',
    });
    expect(await formRow(form.id)).toMatchObject({ name: 'After' });
    expect((await t.stack.ctx.forms.byToken(() => freshEm(t), form.endpointToken))?.name).toBe(
      'After',
    );
    expect(await asked('second@example.org')).toBe(true);
    // The same values again change nothing: no audit entry.
    const again = await updateForm(em, t.stack.ctx, form, changes);
    expect(again).toMatchObject({ changed: [], audit: { skip: true } });
  });

  it('refuses a domain that is not verified, a slug taken on it, and uploads off under a file field', async () => {
    const em = freshEm(t);
    const create = async (name: string, fields?: FormField[]) =>
      (
        await createForm(em, t.stack.ctx, {
          accountId: t.accountId,
          settings: { name, fields, acceptFiles: fields !== undefined },
        })
      ).form;
    const first = await create('First', [FILE_FIELD]);
    const second = await create('Second');
    await t.stack.sql(`insert into domains (account_id, domain) values (?, 'unverified.test')`, [
      t.accountId,
    ]);
    await expect(
      updateForm(em, t.stack.ctx, first, { domain: 'unverified.test', slug: 'a' }),
    ).rejects.toBeInstanceOf(FormPlaceRefusedError);
    await t.stack.sql(
      `insert into domains (account_id, domain, verified_at) values (?, 'verified.test', now())`,
      [t.accountId],
    );
    const placed = await updateForm(em, t.stack.ctx, first, {
      domain: 'verified.test',
      slug: 'jobs',
    });
    expect(placed.audit.summary).toBe('changed domain, slug');
    await expect(
      updateForm(em, t.stack.ctx, second, { domain: 'verified.test', slug: 'jobs' }),
    ).rejects.toBeInstanceOf(SlugTakenError);
    await expect(updateForm(em, t.stack.ctx, first, { acceptFiles: false })).rejects.toBeInstanceOf(
      FileFieldsRefusedError,
    );
    expect(await formRow(first.id)).toMatchObject({ accept_files: true, slug: 'jobs' });
    expect(await formRow(second.id)).toMatchObject({ slug: null });
  });
});

describe('one rule for the API and the dashboard', () => {
  it('neither turns uploads off under a file field: 422, nothing changed, nothing audited', async () => {
    const created = await t.api.post('/api/forms', {
      name: 'CV drop',
      accept_files: true,
      fields: [FILE_FIELD],
    });
    const { id } = expectAnswer(created, 'POST /api/forms', 201).form;
    expectError(
      await t.api.patch(`/api/forms/${id}`, { accept_files: false }),
      422,
      'validation_failed',
    );
    const app = await dashboardOf(t);
    // The settings page without the checkbox ticked: uploads off.
    const page = await app.post(`/app/forms/${id}`, { name: 'CV drop', allowed_domains: '' }, 422);
    expect(page.text).toContain('is a file field, but the form does not accept files');
    expect(await formRow(id)).toMatchObject({ name: 'CV drop', accept_files: true });
    const form = await findAccountForm(freshEm(t), t.accountId, id);
    expect(form?.acceptFiles).toBe(true);
    const updates = await auditEntries(t, 'form.updated');
    expect(updates.filter((entry) => entry.target_id === id)).toEqual([]);
  });

  it('both record a settings change with the changed fields', async () => {
    const { id } = expectAnswer(
      await t.api.post('/api/forms', { name: 'Summaries' }),
      'POST /api/forms',
      201,
    ).form;
    expectAnswer(
      await t.api.patch(`/api/forms/${id}`, { name: 'By API' }),
      'PATCH /api/forms/{id}',
      200,
    );
    const app = await dashboardOf(t);
    await app.post(`/app/forms/${id}`, { name: 'By page', is_active: 'on' });
    const updates = (await auditEntries(t, 'form.updated')).filter((e) => e.target_id === id);
    expect(updates.map((entry) => entry.summary)).toEqual(['changed name', 'changed name']);
  });
});
