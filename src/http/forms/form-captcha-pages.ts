import { captchaView } from '../../domain/captcha/captcha-settings';
import { applyFormChanges } from '../../domain/forms/forms';
import type { Form } from '../../domain/entities';
import { captchaChanges } from './captcha-changes';
import { HttpError } from '../kit/errors/http-error';
import { formOr404 } from './account-form';
import {
  captchaSettingsOf,
  type CaptchaSettingsInput,
  readCaptchaSettings,
} from './captcha-settings-fields';
import { definePage, type Render } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { formRef } from './page-views';

const PAGE = {
  access: 'session',
  template: 'form-captcha',
  title: (data: { form: { name: string } }) => `CAPTCHA of ${data.form.name}`,
} as const;

const show = (
  render: Render<'form-captcha'>,
  form: Form,
  edit?: { input: CaptchaSettingsInput; error: string },
) => {
  const captcha = captchaView(form.captcha);
  return render(
    {
      form: formRef(form),
      captcha,
      input: edit?.input ?? captchaSettingsOf(captcha),
      error: edit?.error ?? null,
    },
    { status: edit ? 422 : 200 },
  );
};

/**
 * `/app/forms/:id/captcha`: the form's CAPTCHA (docs/captcha.md), also on the form's spam
 * section (`/app/forms/:id/spam`): the provider, its site key and its write-only secret
 * ("secret set" once stored; left empty, it stays), reCAPTCHA v3's least score.
 */
export const formCaptchaPages = [
  definePage({
    need: 'can_create_forms',
    ...PAGE,
    method: 'get',
    path: '/app/forms/:id/captcha',
  }).handle(async ({ req, res, render }) => {
    const form = await formOr404(req, res);
    if (form) await show(render, form);
  }),
  definePage({
    need: 'can_create_forms',
    ...PAGE,
    method: 'post',
    path: '/app/forms/:id/captcha',
    audit: { action: 'form.captcha_updated', target: 'form' },
  }).handle(async ({ req, res, render, audit }, ctx) => {
    const form = await formOr404(req, res);
    if (!form) return;
    const { input, result } = readCaptchaSettings(req.body);
    if (!result.ok) return show(render, form, { input, error: result.error });
    let changes;
    try {
      changes = captchaChanges(result.captcha, form.captcha, ctx.captchaSecrets);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return show(render, form, { input, error: error.errors?.[0] ?? error.message });
    }
    audit.skip = (await applyFormChanges(req.em, form, changes)).length === 0;
    ctx.forms.forget(form.endpointToken);
    setFlash(res, ctx.urls.base, 'captcha_saved');
    res.redirect(303, `/app/forms/${form.id}/spam`);
  }),
];
