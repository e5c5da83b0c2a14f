import { z } from 'zod';
import { RESPONSE_FIELDS } from '../../domain/captcha/captcha-settings';
import { formJsonSchema } from '../../domain/forms/form-json-schema';
import { findAccountForm } from '../../domain/forms/forms';
import { notFound } from '../kit/errors/http-error';
import { defineRoute } from '../kit/routing/define-route';

const jsonSchemaDocument = z
  .record(z.string(), z.unknown())
  .describe('a JSON Schema (draft 2020-12) document')
  .meta({ id: 'FormPayloadSchema' });

/** `GET /api/forms/{id}/schema`: the payload a form accepts, for receivers and code generators. */
export const formSchemaRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/forms/{id}/schema',
    operationId: 'getFormSchema',
    tag: 'Forms',
    summary: "The JSON Schema of a form's payload",
    description:
      'JSON Schema 2020-12 of the object `/json/{endpoint_token}` accepts: one property a ' +
      'field of `fields` (file fields aside, they are posted to `/f`), `required` as set, ' +
      '`additionalProperties` false when `unknown_fields` is `reject`. A form without `fields` ' +
      'has an open object. Every payload valid against it is accepted (docs/form-fields.md).',
    access: 'any',
    responses: { 200: { description: 'the schema', body: jsonSchemaDocument } },
    errors: ['not_found'],
  }).handle(async ({ req, params, principal }, ctx) => {
    const form = await findAccountForm(req.em, principal.accountId, params.id);
    if (!form) throw notFound('form');
    const schema = formJsonSchema({
      name: form.name,
      schemaUrl: `${ctx.urls.base}/api/forms/${form.id}/schema`,
      fields: form.fields ?? null,
      unknownFields: form.unknownFields,
      captchaField: form.captcha ? RESPONSE_FIELDS[form.captcha.provider] : null,
    });
    return { status: 200, body: schema };
  }),
];
