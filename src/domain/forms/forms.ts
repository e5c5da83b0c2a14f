import { isDeepStrictEqual } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Form } from '../../db/entities';
import type { StoredCaptcha } from '../../db/entities/form-captcha';
import type { FormField, FormPage, UnknownFieldPolicy } from '../../db/entities/form-fields';
import type { FormLimits } from '../../db/entities/form-limits';
import type { SubmitterAccess } from '../../db/entities/submitter-access';
import type { Autoresponse } from '../autoresponse/autoresponse-text';
import { countFormsUnderLock } from '../../db/sql/budget-counts';
import { type FormPosition, selectFormPositions } from '../../db/sql/forms';
import { formLimitReached, withinBudget } from '../budgets/limit-reached';
import { isEndpointToken, isNumericId, newEndpointToken } from './endpoint-token';

export type FormChanges = Partial<{
  name: string;
  successRedirectUrl: string | null;
  isActive: boolean;
  acceptFiles: boolean;
  allowedDomains: string[];
  notificationEmailAddresses: string[];
  /** Sealed already (captchaToStore). */
  captcha: StoredCaptcha | null;
  autoresponse: Autoresponse | null;
  retentionDays: number | null;
  deleteAfterDelivery: boolean;
  fields: FormField[] | null;
  unknownFields: UnknownFieldPolicy;
  page: FormPage | null;
  /** Checked first (checkFormPlace): a verified domain of the form's account. */
  domain: string | null;
  slug: string | null;
  /** Checked first (limitsProblem): its unique field is one of the fields. */
  limits: FormLimits | null;
  /** What submitters may do through their manage link (docs/manage-links.md). */
  submitterAccess: SubmitterAccess;
  /** An ISO 8601 duration (editDurationMs); null: until `limits.closes_at`, if any. */
  editUntil: string | null;
}>;

/** A form of this account by numeric id or endpoint token; another account's form is "not found". */
export async function findAccountForm(
  em: EntityManager,
  accountId: string,
  idOrToken: string,
): Promise<Form | null> {
  if (isNumericId(idOrToken)) return em.findOne(Form, { id: idOrToken, accountId });
  if (!isEndpointToken(idOrToken)) return null;
  return em.findOne(Form, { endpointToken: idOrToken, accountId });
}

export async function findFormByToken(em: EntityManager, token: string): Promise<Form | null> {
  if (!isEndpointToken(token)) return null;
  return em.findOne(Form, { endpointToken: token });
}

/** One page of the account's forms, newest first, and how many there are in all. */
export async function listAccountForms(
  em: EntityManager,
  accountId: string,
  page: { page: number; perPage: number },
): Promise<{ rows: Form[]; total: number }> {
  const [rows, total] = await em.findAndCount(
    Form,
    { accountId },
    {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: page.perPage,
      offset: (page.page - 1) * page.perPage,
    },
  );
  return { rows, total };
}

export type { FormPosition } from '../../db/sql/forms';

/**
 * One page of the account's forms for the API's list, newest first: from the page's offset,
 * or right after `after` (keyset, where a list cut short by its byte budget goes on). Each
 * form comes with its position; `more`: forms follow the page's last one.
 */
export async function listAccountFormsPage(
  em: EntityManager,
  accountId: string,
  slice: { page: number; perPage: number; after?: FormPosition },
): Promise<{ rows: { form: Form; position: FormPosition }[]; total: number; more: boolean }> {
  const offset = (slice.page - 1) * slice.perPage;
  const [positions, total] = await Promise.all([
    selectFormPositions(em, accountId, { limit: slice.perPage, offset, after: slice.after }),
    em.count(Form, { accountId }),
  ]);
  const listed = positions.slice(0, slice.perPage);
  const forms = await em.find(Form, { accountId, id: { $in: listed.map((p) => p.id) } });
  const byId = new Map(forms.map((form) => [form.id, form]));
  const rows = listed.flatMap((p) => {
    const form = byId.get(p.id);
    return form ? [{ form, position: { createdMicros: p.created_us, id: p.id } }] : [];
  });
  return { rows, total, more: positions.length > slice.perPage };
}

/**
 * Stores a new form unless the account's owner already has `maxForms` across the accounts
 * they own (MAX_FORMS_PER_ACCOUNT, per owner; 0: no limit), counted under locks on the account
 * and its owner so parallel creations cannot pass it together. The use case around it (checks,
 * confirmation requests, audit) is create-form.ts.
 */
export async function insertForm(
  em: EntityManager,
  accountId: string,
  input: { name: string } & FormChanges,
  maxForms: number,
): Promise<Form> {
  return em.transactional(async (tx) => {
    const count = await countFormsUnderLock(tx, accountId);
    if (!withinBudget(count, maxForms)) throw formLimitReached(count, maxForms);
    const form = tx.create(Form, {
      accountId,
      name: input.name,
      endpointToken: newEndpointToken(),
      successRedirectUrl: input.successRedirectUrl ?? null,
      isActive: input.isActive ?? true,
      // Off unless asked for: most forms have no file input, and open uploads invite abuse.
      acceptFiles: input.acceptFiles ?? false,
      allowedDomains: input.allowedDomains ?? [],
      notificationEmailAddresses: input.notificationEmailAddresses ?? [],
      captcha: input.captcha ?? null,
      retentionDays: input.retentionDays ?? null,
      deleteAfterDelivery: input.deleteAfterDelivery ?? false,
      fields: input.fields ?? null,
      unknownFields: input.unknownFields ?? 'keep',
      page: input.page ?? null,
      limits: input.limits ?? null,
      submitterAccess: input.submitterAccess ?? 'none',
      editUntil: input.editUntil ?? null,
    });
    await tx.flush();
    return form;
  });
}

/** The names of the changes that would alter the form: a value it does not have already. */
export function changedFields(form: Form, changes: FormChanges): (keyof FormChanges)[] {
  return (Object.keys(changes) as (keyof FormChanges)[]).filter(
    (name) => changes[name] !== undefined && !isDeepStrictEqual(changes[name], form[name]),
  );
}

/**
 * Applies the changes that alter the form and returns their names. When none does, nothing
 * is written: `updated_at` stays, and the caller writes no audit entry (docs/audit-log.md).
 * The use case around it (checks, cache, confirmation requests, audit) is update-form.ts.
 */
export async function applyFormChanges(
  em: EntityManager,
  form: Form,
  changes: FormChanges,
): Promise<(keyof FormChanges)[]> {
  const changed = changedFields(form, changes);
  if (changed.length === 0) return changed;
  em.assign(form, Object.fromEntries(changed.map((name) => [name, changes[name]])));
  await em.flush();
  return changed;
}

/**
 * Deletes the form; its submissions, files, plugins and delivery records go with it (the
 * foreign keys cascade, and stored file bytes are queued for the object sweep).
 */
export async function deleteForm(em: EntityManager, form: Form): Promise<void> {
  await em.nativeDelete(Form, { id: form.id, accountId: form.accountId });
}
