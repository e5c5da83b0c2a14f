import type { EntityManager } from '@mikro-orm/postgresql';
import { Form } from '../../db/entities';
import { isNumericId, newEndpointToken } from './endpoint-token';

export type FormChanges = Partial<{
  name: string;
  successRedirectUrl: string | null;
  isActive: boolean;
  allowedDomains: string[];
  notificationEmailAddresses: string[];
}>;

/** A form of this account by numeric id or endpoint token; another account's form is "not found". */
export async function findAccountForm(
  em: EntityManager,
  accountId: string,
  idOrToken: string,
): Promise<Form | null> {
  const where = isNumericId(idOrToken) ? { id: idOrToken } : { endpointToken: idOrToken };
  return em.findOne(Form, { ...where, accountId });
}

export async function findFormByToken(em: EntityManager, token: string): Promise<Form | null> {
  return em.findOne(Form, { endpointToken: token });
}

export async function listAccountForms(em: EntityManager, accountId: string): Promise<Form[]> {
  return em.find(Form, { accountId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
}

export async function createForm(
  em: EntityManager,
  accountId: string,
  input: { name: string } & FormChanges,
): Promise<Form> {
  const form = em.create(Form, {
    accountId,
    name: input.name,
    endpointToken: newEndpointToken(),
    successRedirectUrl: input.successRedirectUrl ?? null,
    isActive: input.isActive ?? true,
    allowedDomains: input.allowedDomains ?? [],
    notificationEmailAddresses: input.notificationEmailAddresses ?? [],
  });
  await em.flush();
  return form;
}

export async function updateForm(
  em: EntityManager,
  form: Form,
  changes: FormChanges,
): Promise<Form> {
  em.assign(form, changes);
  await em.flush();
  return form;
}
