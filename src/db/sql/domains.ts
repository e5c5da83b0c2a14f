import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/** Hours a verified domain keeps serving after its checks start failing (docs/custom-domains.md). */
export const GRACE_HOURS = 72;

/** A domain serves while verified and not failing for longer than the grace. */
const SERVING = `d.verified_at is not null
  and (d.failing_since is null or d.failing_since > now() - interval '${GRACE_HOURS} hours')`;

/** Locks the account's row (parallel claims count one after the other), then counts its domains. */
export async function countDomainsUnderLock(tx: EntityManager, accountId: string): Promise<number> {
  await runStatement(tx, 'select id from accounts where id = ? for no key update', [accountId]);
  const [row] = await selectRows<{ total: string }>(
    tx,
    'select count(*) as total from domains where account_id = ?',
    [accountId],
  );
  return Number(row?.total ?? 0);
}

/** Claims the domain for the account; false when another claim (any account's) holds it. */
export async function insertDomainClaim(
  tx: EntityManager,
  accountId: string,
  domain: string,
): Promise<boolean> {
  const inserted = await runStatement(
    tx,
    'insert into domains (account_id, domain) values (?, ?) on conflict (domain) do nothing',
    [accountId, domain],
  );
  return inserted > 0;
}

/** The endpoint token of the form served at `https://{domain}/{slug}`, while the domain serves. */
export async function findServedFormToken(
  em: EntityManager,
  domain: string,
  slug: string,
): Promise<string | null> {
  const [row] = await selectRows<{ endpoint_token: string }>(
    em,
    `select f.endpoint_token from forms f
       join domains d on d.account_id = f.account_id and d.domain = f.domain
      where f.domain = ? and f.slug = ? and ${SERVING}`,
    [domain, slug],
  );
  return row?.endpoint_token ?? null;
}

/**
 * Whether a certificate may be ordered for the domain (Caddy's `ask`): it serves, was verified
 * at least `minutes` ago, and at least one active form of its account is on it with a slug.
 */
export async function isDomainCertifiable(
  em: EntityManager,
  domain: string,
  minutes: number,
): Promise<boolean> {
  const [row] = await selectRows<{ certifiable: boolean }>(
    em,
    `select true as certifiable from domains d
      where d.domain = ? and ${SERVING}
        and d.verified_at <= now() - make_interval(mins => ?)
        and exists (select 1 from forms f
                     where f.account_id = d.account_id and f.domain = d.domain
                       and f.slug is not null and f.is_active)`,
    [domain, minutes],
  );
  return row !== undefined;
}

export type DueDomainRow = { id: string; account_id: string; domain: string };

/**
 * Takes up to `limit` verified domains due for their re-check, marking them checked now so
 * that no other process takes them too: passing ones once a day, failing ones every hour (a
 * fixed record serves again within the hour).
 */
export async function takeDueDomains(em: EntityManager, limit: number): Promise<DueDomainRow[]> {
  return selectRows<DueDomainRow>(
    em,
    `update domains set last_checked_at = now()
      where id in (
        select id from domains
         where verified_at is not null
           and (last_checked_at is null
                or last_checked_at < now() - case when failing_since is null
                                                  then interval '24 hours'
                                                  else interval '1 hour' end)
         order by last_checked_at nulls first
         limit ?
         for update skip locked)
      returning id::text as id, account_id::text as account_id, domain`,
    [limit],
  );
}

/** The e-mail addresses of the account's owners. */
export async function ownerEmails(em: EntityManager, accountId: string): Promise<string[]> {
  const rows = await selectRows<{ email: string }>(
    em,
    `select u.email from memberships m join users u on u.id = m.user_id
      where m.account_id = ? and m.role = 'owner'`,
    [accountId],
  );
  return rows.map((row) => row.email);
}

/** Forms of the account on the domain, by id: their page is also at `https://{domain}/{slug}`. */
export async function countDomainForms(
  em: EntityManager,
  accountId: string,
  domains: readonly string[],
): Promise<Map<string, number>> {
  if (domains.length === 0) return new Map();
  const rows = await selectRows<{ domain: string; total: string }>(
    em,
    `select domain, count(*) as total from forms
      where account_id = ? and domain = any(?::text[]) group by domain`,
    [accountId, `{${domains.map((d) => `"${d}"`).join(',')}}`],
  );
  return new Map(rows.map((row) => [row.domain, Number(row.total)]));
}

/** Takes the domain (and slug) off the account's forms; returns how many there were. */
export async function clearDomainFromForms(
  tx: EntityManager,
  accountId: string,
  domain: string,
): Promise<number> {
  return runStatement(
    tx,
    `update forms set domain = null, slug = null, updated_at = now()
      where account_id = ? and domain = ?`,
    [accountId, domain],
  );
}
