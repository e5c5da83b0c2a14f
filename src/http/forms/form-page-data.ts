import type { Request } from 'express';
import type { AppContext } from '../../runtime/app-context';
import type { Form } from '../../domain/entities';
import { countSubmissionsByForm } from '../../domain/forms/form-counts';
import { recipientLookup } from '../../domain/recipients/recipient-states';
import { formView } from './form-view';
import { sessionPrincipal } from './account-form';
import { type FormSectionKey, formSectionLinks } from './form-sections';
import { formatTime } from '../kit/chrome/format-time';
import type { DashboardSession } from '../kit/session/session-guard';
import type { FormSectionData } from '../kit/chrome/template-data';

export async function formSectionData(
  req: Request,
  session: DashboardSession,
  ctx: AppContext,
  form: Form,
  section: FormSectionKey,
): Promise<FormSectionData> {
  const counts = (await countSubmissionsByForm(req.em, [form.id]))(form.id);
  const addresses = form.notificationEmailAddresses;
  const recipients = await recipientLookup(req.em, form.accountId, addresses);
  const principal = sessionPrincipal(session);
  return {
    form: formView(form, counts, ctx.urls, principal, recipients(addresses)),
    sections: formSectionLinks(form.id, section),
    lastSubmissionAt: counts.lastSubmissionAt,
    formatTime,
  };
}
