import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form } from '../../db/entities';
import type { UseCaseAudit } from '../audit/use-case-audit';
import { checkFormPlace, isSlugClash } from '../domains/domain-forms';
import { refuseFileFieldsWithoutUploads, refuseLimitsOutsideFields } from './field-rules';
import { askRecipientsToConfirm, type FormUseCaseDeps } from './form-use-case-deps';
import { applyFormChanges, type FormChanges } from './forms';

/** Another form of the domain has the slug asked for. */
export class SlugTakenError extends Error {
  override name = 'SlugTakenError';

  constructor() {
    super('another form of this domain has this slug');
  }
}

/** The domain asked for is not a verified domain of the form's account: `domain: …` problems. */
export class FormPlaceRefusedError extends Error {
  override name = 'FormPlaceRefusedError';

  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

/** A form's field as the API names it, for the audit summary: `allowedDomains` is `allowed_domains`. */
const apiFieldName = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Changing a form's settings, for `PATCH /api/forms/{id}` and the dashboard's settings page:
 * the fields and upload setting must go together (FileFieldsRefusedError), a unique field of
 * the limits must be one of the fields (LimitsRefusedError); a domain or slug
 * must be a verified domain of the account (FormPlaceRefusedError) with the slug free on it
 * (SlugTakenError, also when a parallel change took it first). Ingest's cached copy is
 * forgotten, and when recipient addresses were given the new ones are asked to confirm. A
 * change that changes nothing is not an event: the audit is skipped (docs/audit-log.md).
 */
export async function updateForm(
  em: EntityManager,
  deps: FormUseCaseDeps,
  form: Form,
  changes: FormChanges,
): Promise<{ changed: (keyof FormChanges)[]; audit: UseCaseAudit }> {
  refuseFileFieldsWithoutUploads(
    changes.fields === undefined ? form.fields : changes.fields,
    changes.acceptFiles ?? form.acceptFiles,
  );
  refuseLimitsOutsideFields(
    changes.fields === undefined ? form.fields : changes.fields,
    changes.limits === undefined ? form.limits : changes.limits,
  );
  if (changes.domain !== undefined || changes.slug !== undefined) {
    const place = await checkFormPlace(em, form, {
      domain: changes.domain === undefined ? (form.domain ?? null) : changes.domain,
      slug: changes.slug === undefined ? (form.slug ?? null) : changes.slug,
    });
    if (place.errors.length > 0) throw new FormPlaceRefusedError(place.errors);
    if (place.slugTaken) throw new SlugTakenError();
  }
  const changed = await applyFormChanges(em, form, changes).catch((error: unknown) => {
    // Two forms given one slug at once: the unique index decides.
    if (isSlugClash(error)) throw new SlugTakenError();
    throw error;
  });
  deps.forms.forget(form.endpointToken);
  if (changes.notificationEmailAddresses !== undefined)
    await askRecipientsToConfirm(em, deps, form);
  return {
    changed,
    audit: {
      skip: changed.length === 0,
      summary: `changed ${changed.map(apiFieldName).sort().join(', ')}`,
    },
  };
}
