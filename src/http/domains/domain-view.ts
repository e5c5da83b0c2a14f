import { z } from 'zod';
import type { Domain } from '../../domain/entities';
import type { DomainCheck } from '../../domain/domains/domain-check';
import { domainStatus, graceEnd, isServing } from '../../domain/domains/domains';
import { can, type Principal } from '../../domain/accounts/principal';
import { envelopeSchema, listEnvelopeSchema } from '../kit/answers/envelope';
import { link, linksSchema, type Link } from '../kit/answers/links';
import type { PublicUrls } from '../../runtime/public-urls';
import { count, dateTime } from '../kit/answers/fields';
import { domainCheckFields } from './public-view';

const recordSchema = z
  .object({
    type: z.enum(['TXT', 'CNAME', 'A', 'AAAA']),
    name: z.string().describe('the record name to add'),
    value: z.string().describe('its value'),
    present: z
      .boolean()
      .nullable()
      .describe('as this answer checked it (POST …/verify); null when not checked in this answer'),
  })
  .meta({ id: 'DomainRecord' });

export const domainSchema = z
  .object({
    domain: z.string().describe('lower case, IDNs in punycode'),
    verified: z.boolean().describe('the last check passed'),
    status: z
      .enum(['pending', 'verified', 'failing', 'stopped'])
      .describe(
        '`pending`: never verified; `verified`; `failing`: checks fail, still served until `serving_until`; `stopped`: failing past the 72-hour grace, not served',
      ),
    serving: z
      .boolean()
      .describe('its form pages answer on https://{domain}/{slug} (verified or in grace)'),
    records: z
      .array(recordSchema)
      .describe(
        'what to add to DNS: the TXT record with this account’s value, and a CNAME to FORM_PAGES_TARGET (A/AAAA records with its addresses work too)',
      ),
    forms: count('forms of the account on this domain'),
    verified_at: dateTime('the first passing check').nullable(),
    last_checked_at: dateTime('the last check').nullable(),
    failing_since: dateTime('the first failing check since the last passing one').nullable(),
    serving_until: dateTime('when a failing domain stops serving (72 hours of grace)').nullable(),
    last_error: z.string().nullable().describe('what the last failing check found wrong'),
    created_at: dateTime('when the account claimed it'),
    check: z
      .object(domainCheckFields)
      .optional()
      .describe('the check this answer ran (POST …/verify only)'),
    links: linksSchema(),
  })
  .meta({ id: 'Domain' });

export type DomainView = z.input<typeof domainSchema>;

export const domainEnvelope = envelopeSchema('DomainEnvelope', 'domain', domainSchema);
export const domainListEnvelope = listEnvelopeSchema('DomainListEnvelope', 'domains', domainSchema);

export const domainDeletedSchema = z
  .object({
    ok: z.literal(true),
    message: z.literal('domain removed'),
    forms_cleared: count('forms that lost this domain and their slug'),
    links: linksSchema(),
  })
  .meta({ id: 'DomainDeleted' });

/** The Domain resource: where it stands, what to add, and the links this caller may follow. */
export function domainView(
  domain: Domain,
  input: {
    records: { type: 'TXT' | 'CNAME' | 'A' | 'AAAA'; name: string; value: string }[];
    forms: number;
    check?: DomainCheck;
  },
  urls: PublicUrls,
  principal: Principal,
): DomainView {
  const { check } = input;
  const presentOf = (type: string): boolean | null => {
    if (!check) return null;
    if (type === 'TXT') return check.records.txt.ok;
    return check.method !== null;
  };
  const until = graceEnd(domain);
  return {
    domain: domain.domain,
    verified: Boolean(domain.verifiedAt && !domain.failingSince),
    status: domainStatus(domain),
    serving: isServing(domain),
    records: input.records.map((record) => ({ ...record, present: presentOf(record.type) })),
    forms: input.forms,
    verified_at: domain.verifiedAt?.toISOString() ?? null,
    last_checked_at: domain.lastCheckedAt?.toISOString() ?? null,
    failing_since: domain.failingSince?.toISOString() ?? null,
    serving_until: until?.toISOString() ?? null,
    last_error: domain.lastError ?? null,
    created_at: domain.createdAt.toISOString(),
    ...(check ? { check } : {}),
    links: domainLinks(domain, urls, principal),
  };
}

function domainLinks(domain: Domain, urls: PublicUrls, principal: Principal): Link[] {
  const self = `${urls.base}/api/domains/${domain.domain}`;
  const links = [link('self', self)];
  if (can(principal, 'can_create_forms'))
    links.push(link('verify', `${self}/verify`, 'POST'), link('delete', self, 'DELETE'));
  links.push(link('public_check', `${urls.base}/api/public/verify_domain?domain=${domain.domain}`));
  return links;
}
