import type { EntityManager } from '@mikro-orm/postgresql';
import { Domain, Form } from '../../db/entities';
import {
  countDomainForms as countForms,
  findServedFormToken,
  isDomainCertifiable,
} from '../../db/sql/domains';
import { applyFormChanges } from '../forms/forms';

/** A form's slug on its custom domain: `https://{domain}/{slug}`. */
export const SLUG_PATTERN = /^[a-z0-9-]{1,64}$/;

export const countDomainForms = countForms;

/** The endpoint token behind `https://{host}/{slug}`, while the domain serves; else null. */
export async function servedFormToken(
  em: EntityManager,
  host: string,
  slug: string,
): Promise<string | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  return findServedFormToken(em, host, slug);
}

/** Minutes a domain must have been verified before a certificate is ordered for it. */
export const CERTIFICATE_AFTER_MINUTES = 10;

/**
 * Caddy's `ask` (docs/custom-domains.md, "Automatic HTTPS"): whether a certificate may be
 * ordered for the host. Only a claimed domain that serves, was verified at least
 * CERTIFICATE_AFTER_MINUTES ago and has an active form on it at a slug: claiming, verifying
 * and releasing domains in a loop cannot make Caddy spend the operator's ACME orders.
 */
export const domainMayHaveCertificate = (em: EntityManager, host: string) =>
  isDomainCertifiable(em, host, CERTIFICATE_AFTER_MINUTES);

/**
 * Why the form cannot take this domain and slug, per field (`domain: …`, `slug: …`), or an
 * empty list. The domain must be a verified domain of the form's own account (another
 * account's reads as unknown); a slug already used on that domain is `slugTaken`.
 */
export async function checkFormPlace(
  em: EntityManager,
  form: Form,
  place: { domain: string | null; slug: string | null },
): Promise<{ errors: string[]; slugTaken: boolean }> {
  const errors: string[] = [];
  if (place.domain !== null) {
    const domain = await em.findOne(Domain, { accountId: form.accountId, domain: place.domain });
    if (!domain) errors.push(`domain: ${place.domain} is not a domain of this account`);
    else if (!domain.verifiedAt)
      errors.push(
        `domain: ${place.domain} is not verified yet (POST /api/domains/{domain}/verify)`,
      );
  }
  if (errors.length > 0 || place.domain === null || place.slug === null)
    return { errors, slugTaken: false };
  const other = await em.findOne(Form, {
    domain: place.domain,
    slug: place.slug,
    id: { $ne: form.id },
  });
  return { errors, slugTaken: other !== null };
}

/**
 * Puts the form on a domain at a slug (or, with nulls, takes it off), after checkFormPlace;
 * a slug taken meanwhile by a parallel change is `slugTaken` too (the unique index decides).
 */
export async function placeForm(
  em: EntityManager,
  form: Form,
  place: { domain: string | null; slug: string | null },
): Promise<{ errors: string[]; slugTaken: boolean; changed: boolean }> {
  const checked = await checkFormPlace(em, form, place);
  if (checked.errors.length > 0 || checked.slugTaken) return { ...checked, changed: false };
  try {
    const changed = await applyFormChanges(em, form, place);
    return { errors: [], slugTaken: false, changed: changed.length > 0 };
  } catch (error) {
    if (isSlugClash(error)) return { errors: [], slugTaken: true, changed: false };
    throw error;
  }
}

/** The unique index on (domain, slug) refused a change. */
export const isSlugClash = (error: unknown) =>
  (error as { constraint?: string } | null)?.constraint === 'forms_domain_slug_key';
