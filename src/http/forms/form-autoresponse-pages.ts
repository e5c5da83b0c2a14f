import { applyFormChanges } from '../../domain/forms/forms';
import { formOr404 } from './account-form';
import {
  autoresponseSection,
  readAutoresponseInput,
  validateAutoresponse,
} from './autoresponse-fields';
import { definePage } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { AUTORESPONSE_PAGE, showAutoresponse } from './form-sections-pages';

/**
 * The autoresponse section of a form (`/app/forms/:id/autoresponse`, form-sections-pages.ts) (docs/autoresponse.md): "Preview" shows what a
 * submitter would get with sample values and changes nothing; "Save" stores it as
 * `PATCH /api/forms/{id}` with `autoresponse` does (unticked: null, no autoresponse).
 */
export const formAutoresponsePages = [
  definePage({
    need: 'can_create_forms',
    method: 'post',
    path: '/app/forms/:id/autoresponse',
    audit: { action: 'form.autoresponse_updated', target: 'form' },
    ...AUTORESPONSE_PAGE,
  }).handle(async (page, ctx) => {
    const { req, res } = page;
    const form = await formOr404(req, res);
    if (!form) return;
    const input = readAutoresponseInput(req.body);
    const valid = validateAutoresponse(input);
    const fields = (req.body ?? {}) as Record<string, unknown>;
    if (!valid.ok || fields.intent === 'preview') {
      const errors = valid.ok ? {} : valid.errors;
      const section = autoresponseSection(form.name, input, errors);
      return showAutoresponse(page, ctx, form, { section, status: valid.ok ? 200 : 422 });
    }
    const changed = await applyFormChanges(req.em, form, { autoresponse: valid.autoresponse });
    page.audit.skip = changed.length === 0;
    setFlash(res, ctx.urls.base, 'autoresponse_saved');
    res.redirect(303, `/app/forms/${form.id}/autoresponse`);
  }),
];
