import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Domain } from '../../db/entities';
import { clearDomainFromForms, countDomainsUnderLock } from '../../db/sql/domains';
import { LimitReachedError } from '../budgets/limit-reached';
import { checkDomain, claimTxtValue } from './domain-check';
import type { DomainCheckDeps } from './domain-checks';
import { claimDomain, DomainTakenError, MAX_DOMAINS_PER_ACCOUNT } from './domains';
import { countVerification } from './verification-ledger';

/**
 * Another account holds the domain and this one has not shown it controls its DNS: the
 * answer tells the claimant the TXT value of its own that would (never the holder's).
 */
export class DomainHeldError extends Error {
  override name = 'DomainHeldError';
  constructor(
    readonly domain: string,
    readonly txtName: string,
    readonly txtValue: string,
    readonly target: string,
  ) {
    super(
      `another account holds ${domain}. If you control its DNS, add a TXT record on ${txtName} ` +
        `with the value ${txtValue} and a CNAME to ${target} (or its A/AAAA addresses), then claim it again: ` +
        'the domain moves to this account',
    );
  }
}

/** What a claim takes: the DNS check of a takeover, its budgets and the daily ledger. */
export type ClaimDeps = Pick<
  DomainCheckDeps,
  'resolver' | 'appSecret' | 'target' | 'dnsChecks' | 'verificationsPerDay'
>;

/**
 * Claims a domain; when another account holds it, the DNS decides. A claim that never proved
 * anything must not lock the real owner out for ever (anyone can claim any name), so whoever
 * shows the records of their own account now takes the domain over: the former holder's forms
 * lose it (their pages stay on the ingest host) and it serves for the new account at once.
 * That check counts in the account's DNS budgets and the move as a verification in its
 * owner's daily ledger.
 */
export async function claimOrTakeOver(
  em: EntityManager,
  deps: ClaimDeps,
  accountId: string,
  domain: string,
): Promise<{ domain: Domain; created: boolean; tookOver: boolean }> {
  try {
    return { ...(await claimDomain(em, accountId, domain)), tookOver: false };
  } catch (error) {
    if (!(error instanceof DomainTakenError)) throw error;
    await deps.dnsChecks.spendForAccount(em, accountId);
    const txtValue = claimTxtValue(deps.appSecret, accountId, domain);
    const check = await checkDomain(domain, {
      resolver: deps.resolver,
      target: deps.target(),
      expectedTxt: txtValue,
    });
    if (!check.verified)
      throw new DomainHeldError(domain, `_formward.${domain}`, txtValue, deps.target());
    const moved = await transferDomain(em, accountId, domain, deps.verificationsPerDay);
    return { domain: moved, created: true, tookOver: true };
  }
}

async function transferDomain(
  em: EntityManager,
  accountId: string,
  name: string,
  verificationsPerDay: number,
): Promise<Domain> {
  return em.transactional(async (tx) => {
    const count = await countDomainsUnderLock(tx, accountId);
    if (count >= MAX_DOMAINS_PER_ACCOUNT)
      throw new LimitReachedError(
        'domains per account',
        MAX_DOMAINS_PER_ACCOUNT,
        `This account has ${count} domains; an account may have at most ${MAX_DOMAINS_PER_ACCOUNT}. Delete a domain to add another.`,
      );
    await countVerification(tx, { accountId, domain: name }, verificationsPerDay);
    const held = await tx.findOneOrFail(
      Domain,
      { domain: name },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    await clearDomainFromForms(tx, held.accountId, name);
    const now = new Date();
    tx.assign(held, {
      accountId,
      verifiedAt: now,
      lastCheckedAt: now,
      failingSince: null,
      lastError: null,
      notifiedAt: null,
    });
    await tx.flush();
    return held;
  });
}
