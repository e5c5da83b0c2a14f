import escapeHtml from 'escape-html';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Domain } from '../../db/entities';
import { ownerEmails } from '../../db/sql/domains';
import { randomToken } from '../accounts/secrets';
import type { Mailer } from '../mail/mailer';
import { checkDomain, claimTxtValue, type DomainCheck } from './domain-check';
import { graceEnd, markNotified, recordCheck } from './domains';
import type { DnsCheckBudget } from './dns-check-budget';
import type { DnsResolver } from './resolver-type';
import { countVerification } from './verification-ledger';

/** What checking a claimed domain takes. */
export type DomainCheckDeps = {
  resolver: DnsResolver;
  appSecret: string;
  /** FORM_PAGES_TARGET, or the ingest host (pages-target.ts). */
  target: () => string;
  mailer: Mailer;
  logger: Logger;
  /** The dashboard's URL, for the link in the owners' mail. */
  baseUrl: () => string;
  /** DOMAIN_VERIFICATIONS_PER_DAY: first verifications per owning user a day (0: no cap). */
  verificationsPerDay: number;
  /** The budgets of DNS checks on demand (claims, "Verify now", the public check). */
  dnsChecks: DnsCheckBudget;
};

/** The account's TXT value for its claim. */
export const claimValueOf = (deps: Pick<DomainCheckDeps, 'appSecret'>, domain: Domain) =>
  claimTxtValue(deps.appSecret, domain.accountId, domain.domain);

/**
 * Checks a claimed domain now and records the outcome; the first failure of a verified domain
 * mails its account's owners, once, without holding up the caller. A claim's first passing
 * check counts in the owner's daily ledger first (DomainVerificationsExhaustedError past it;
 * the claim stays unverified).
 */
export async function checkClaim(
  em: EntityManager,
  deps: DomainCheckDeps,
  domain: Domain,
): Promise<DomainCheck> {
  const check = await checkDomain(domain.domain, {
    resolver: deps.resolver,
    target: deps.target(),
    expectedTxt: claimValueOf(deps, domain),
  });
  if (check.verified && !domain.verifiedAt)
    await countVerification(em, domain, deps.verificationsPerDay);
  const error = check.verified ? null : (check.error ?? check.missing.join('; '));
  const { startedFailing } = await recordCheck(em, domain, { verified: check.verified, error });
  if (startedFailing) {
    await markNotified(em, domain);
    await mailOwners(em, deps, domain, error ?? 'the records are missing');
  }
  return check;
}

async function mailOwners(em: EntityManager, deps: DomainCheckDeps, domain: Domain, why: string) {
  const to = await ownerEmails(em, domain.accountId);
  if (to.length === 0) return;
  const until = graceEnd(domain)!;
  const page = `${deps.baseUrl()}/app/domains`;
  const lines = [
    `The DNS records of ${domain.domain} no longer verify: ${why}.`,
    `Its form pages keep working until ${until.toISOString()} (72 hours); after that https://${domain.domain} answers 404 until the records are fixed. The forms keep working on their own addresses throughout.`,
    'Fix the records, then press "Verify now" on the Domains page (or POST /api/domains/{domain}/verify): the domain serves again as soon as a check passes.',
  ];
  deps.mailer
    .send({
      to,
      subject: `Formward: ${domain.domain} stopped verifying`,
      text: `${lines.join('\n\n')}\n\n${page}\n`,
      html: `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(page)}">${escapeHtml(page)}</a></p>`,
      messageId: `<domain-failing-${randomToken(12)}@${deps.mailer.senderDomain}>`,
    })
    .catch((error: unknown) =>
      deps.logger.error(
        { err: error, domain: domain.domain },
        'the domain-failing e-mail could not be sent',
      ),
    );
}
