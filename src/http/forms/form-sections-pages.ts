import type { Request, Response } from 'express';
import type { AppContext } from '../../runtime/app-context';
import type { Form } from '../../domain/entities';
import { formOr404 } from './account-form';
import {
  autoresponseInputOf,
  autoresponseSection,
  type AutoresponseSection,
} from './autoresponse-fields';
import { definePage, type Render } from '../kit/routing/define-page';
import { formSectionData } from './form-page-data';
import { sectionTitle } from './form-sections';
import { type FieldErrors, formSettingsOf, type FormSettingsInput } from './form-settings-fields';
import { retentionPolicyView } from './retention-policy';
import type { DashboardSession } from '../kit/session/session-guard';

type SectionPage<T> = { req: Request; res: Response; session: DashboardSession; render: Render<T> };

const titled =
  (section: Parameters<typeof sectionTitle>[0]) => (data: { form: { name: string } }) =>
    sectionTitle(section, data.form.name);

export const SETTINGS_PAGE = {
  access: 'session',
  template: 'form-settings',
  title: titled('settings'),
} as const;

export const AUTORESPONSE_PAGE = {
  access: 'session',
  template: 'form-autoresponder',
  title: titled('autoresponse'),
} as const;

/** The settings section: the settings as stored, or as typed with their errors (422). */
export async function showSettings(
  { req, session, render }: SectionPage<'form-settings'>,
  ctx: AppContext,
  form: Form,
  edit?: { input: FormSettingsInput; errors: FieldErrors },
) {
  const nextPurge = await ctx.retentionSchedule.nextPurge();
  await render(
    {
      ...(await formSectionData(req, session, ctx, form, 'settings')),
      input: edit?.input ?? formSettingsOf(form),
      errors: edit?.errors ?? {},
      retention: retentionPolicyView(form, ctx.config.spamRetentionDays, nextPurge),
    },
    { status: edit ? 422 : 200 },
  );
}

/** The autoresponse section: as stored, or as typed with a preview or errors. */
export async function showAutoresponse(
  { req, session, render }: SectionPage<'form-autoresponder'>,
  ctx: AppContext,
  form: Form,
  shown?: { section: AutoresponseSection; status: number },
) {
  await render(
    {
      ...(await formSectionData(req, session, ctx, form, 'autoresponse')),
      autoresponse: shown?.section ?? autoresponseSection(form.name, autoresponseInputOf(form)),
    },
    { status: shown?.status ?? 200 },
  );
}

/**
 * The sections of a form's page that only show what is stored (form-sections.ts lists them
 * all): share (link, QR code, embed code, examples), settings, spam and CAPTCHA,
 * autoresponse and the danger zone. Their forms post where they always did.
 */
export const formSectionPages = [
  definePage({
    need: 'member',
    method: 'get',
    path: '/app/forms/:id/share',
    access: 'session',
    template: 'form-share',
    title: titled('share'),
  }).handle(async ({ req, res, session, render }, ctx) => {
    const form = await formOr404(req, res);
    if (form) await render(await formSectionData(req, session, ctx, form, 'share'));
  }),

  definePage({
    need: 'member',
    ...SETTINGS_PAGE,
    method: 'get',
    path: '/app/forms/:id/settings',
  }).handle(async (page, ctx) => {
    const form = await formOr404(page.req, page.res);
    if (form) await showSettings(page, ctx, form);
  }),

  definePage({
    need: 'member',
    method: 'get',
    path: '/app/forms/:id/spam',
    access: 'session',
    template: 'form-spam',
    title: titled('spam'),
  }).handle(async ({ req, res, session, render }, ctx) => {
    const form = await formOr404(req, res);
    if (form) await render(await formSectionData(req, session, ctx, form, 'spam'));
  }),

  definePage({
    need: 'member',
    ...AUTORESPONSE_PAGE,
    method: 'get',
    path: '/app/forms/:id/autoresponse',
  }).handle(async (page, ctx) => {
    const form = await formOr404(page.req, page.res);
    if (form) await showAutoresponse(page, ctx, form);
  }),

  definePage({
    need: 'can_create_forms',
    method: 'get',
    path: '/app/forms/:id/danger',
    access: 'session',
    template: 'form-danger',
    title: titled('danger'),
  }).handle(async ({ req, res, session, render }, ctx) => {
    const form = await formOr404(req, res);
    if (form) await render(await formSectionData(req, session, ctx, form, 'danger'));
  }),
];
