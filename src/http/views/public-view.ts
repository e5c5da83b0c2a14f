import { z } from 'zod';
import { linksSchema } from '../links';
import { count, dateTime } from '../schemas/fields';

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

const dnsCheck = (what: string) =>
  z.object({
    expected: z.string().describe(`the ${what} value that verifies the domain`),
    found: z.array(z.string()).describe(`the ${what} values found`),
    ok: z.boolean(),
  });

export const domainVerificationSchema = z
  .object({
    ok: z.literal(true).describe('the check ran; see `verified` for its outcome'),
    domain: z.string().describe('the normalized domain checked'),
    verified: z.boolean(),
    method: z.enum(['cname', 'txt']).nullable().describe('which record verified it'),
    records: z.object({
      cname: dnsCheck('CNAME'),
      txt: dnsCheck('TXT'),
    }),
    missing: z.array(z.string()).describe('what to add when not verified'),
    error: z.string().optional().describe('DNS failures other than "no such record"'),
    checked_at: dateTime('when DNS was queried'),
    links: linksSchema(),
  })
  .describe(
    'A custom form-page domain verifies with a CNAME to the ingest host, or a TXT record ' +
      '`formward-verification=<token>` on the domain or on `_formward.<domain>`.',
  )
  .meta({ id: 'DomainVerification' });
