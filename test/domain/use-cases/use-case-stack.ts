import { expect } from 'vitest';
import { request } from '../../support/api-client';
import type { TestKit } from '../../support/fixture';
import { postForm } from '../../support/ingest-requests';
import { type AppSession, openAppSession } from '../../dashboard/dashboard-support';

// What the use-case tests share: a fresh entity manager on the stack's database, the audit
// entries the API and the dashboard wrote, and a signed-in dashboard session.

/** A fresh entity manager, as a request gets one. */
export const freshEm = (t: TestKit) => t.stack.ctx.orm.em.fork();

export type AuditRow = { action: string; target_id: string | null; summary: string };

/** The account's audit entries of `action`, oldest first. */
export const auditEntries = (t: TestKit, action: string) =>
  t.stack.sql<AuditRow>(
    `select action, target_id, summary from audit_events
      where account_id = ? and action = ? order by id`,
    [t.accountId, action],
  );

/** A dashboard session of the kit's user, with `get` and `post` (form posts with its token). */
export async function dashboardOf(t: TestKit) {
  const session: AppSession = await openAppSession(t.stack.url, t.email, t.password);
  return {
    get: (path: string) => request('GET', `${t.stack.url}${path}`, { cookie: session.cookie }),
    async post(path: string, fields: Record<string, string> = {}, status = 303) {
      const res = await postForm(
        `${t.stack.url}${path}`,
        { _csrf: session.csrf, ...fields },
        { cookie: session.cookie },
      );
      expect(res.status, res.text).toBe(status);
      return res;
    },
  };
}
