import { z } from 'zod';
import { linksSchema } from '../kit/answers/links';
import { count, dateTime } from '../kit/answers/fields';

/** The answers of the two public endpoints: src/domain/stats/spam-metrics and domains/verify-domain. */

const spamWindow = z
  .object({
    submissions: count('all submissions'),
    spam: count('spam among them'),
    spam_ratio: z.number().min(0).max(1).describe('spam / submissions, 4 decimals'),
  })
  .meta({ id: 'SpamWindow' });

export const spamMetricsSchema = z
  .object({
    ok: z.literal(true),
    generated_at: dateTime('when these numbers were computed (cached up to 60 s)'),
    all_time: spamWindow,
    last_24h: spamWindow,
    last_7d: spamWindow,
    by_reason: z.record(z.string(), z.number().int()).describe('spam counts by reason, all time'),
    links: linksSchema(),
  })
  .describe('Platform-wide aggregates; nothing per account.')
  .meta({ id: 'SpamMetrics' });

/** One check of a domain's records (src/domain/domains/domain-check.ts): what is there, never its values. */
export const domainCheckFields = {
  domain: z.string().describe('the normalized domain checked'),
  verified: z
    .boolean()
    .describe(
      "the claiming account's TXT record AND the CNAME (or A/AAAA) to the target are present",
    ),
  claimed: z.boolean().describe('whether an account holds the domain (which one is never said)'),
  method: z
    .enum(['cname', 'address'])
    .nullable()
    .describe(
      'how the domain points at the target: a CNAME, or A/AAAA records among its addresses',
    ),
  points_at_target: z
    .boolean()
    .describe('the domain points at FORM_PAGES_TARGET (a CNAME to it, or only its addresses)'),
  records: z
    .object({
      cname: z.object({
        expected: z.string().describe('FORM_PAGES_TARGET, the CNAME that verifies the domain'),
        present: z.boolean().describe('the domain has a CNAME record'),
        ok: z.boolean().describe('its CNAME is FORM_PAGES_TARGET'),
      }),
      address: z.object({
        present: z.boolean().describe('the domain has A or AAAA records'),
        ok: z.boolean().describe("they are all among FORM_PAGES_TARGET's addresses"),
      }),
      txt: z.object({
        name: z.string().describe('`_formward.{domain}`'),
        expected: z
          .string()
          .nullable()
          .describe("the claiming account's value; null while no account holds the domain"),
        present: z.boolean().describe('the name has TXT records'),
        ok: z.boolean().describe("one of them is the claiming account's value"),
      }),
    })
    .describe(
      'each record present or missing and whether it is right; the values found (addresses, ' +
        'CNAME targets, TXT values) are never shown',
    ),
  present: z.array(z.string()).describe('the required records found, in words'),
  missing: z.array(z.string()).describe('what to add when not verified'),
  error: z.string().optional().describe('DNS failures other than "no such record"'),
  checked_at: dateTime('when DNS was queried'),
};

export const domainVerificationSchema = z
  .object({
    ok: z.literal(true).describe('the check ran; see `verified` for its outcome'),
    ...domainCheckFields,
    links: linksSchema(),
  })
  .describe(
    'A custom form-page domain verifies with the TXT record `_formward.{domain}` holding the ' +
      "claiming account's value AND a CNAME to FORM_PAGES_TARGET (or A/AAAA records with its " +
      'addresses); docs/custom-domains.md.',
  )
  .meta({ id: 'DomainVerification' });
