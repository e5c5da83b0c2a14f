import type { Request, Response } from 'express';
import { recordAuditEvent, type AuditActor } from '../../../domain/audit/audit-log';
import type { AppContext } from '../../../runtime/app-context';
import {
  auditEntryOf,
  isAudited,
  type AuditDeclaration,
  type AuditNote,
} from './audit-declaration';
import type { DashboardSession } from '../session/session-guard';

/** A page's audit note, and `commit` for a download: writes the entry before streaming. */
export type PageAudit = AuditNote & { commit(): Promise<void> };

/**
 * The audit entry of a page (docs/audit-log.md). Pages send their own answers, so the entry
 * is written when the answer ends: `res.end` is held until the entry is committed, and only
 * an answer below 400 is recorded. A page that streams (a download) commits first; a write
 * to the answer before that is a bug and throws, so no download goes out unrecorded.
 */
export function pageAudit(
  ctx: AppContext,
  req: Request,
  res: Response,
  declaration: AuditDeclaration | undefined,
  session: DashboardSession | undefined,
): PageAudit {
  let state: 'pending' | 'written' = 'pending';
  const audit: PageAudit = {
    async commit() {
      if (state === 'written') return;
      state = 'written';
      const entry = auditEntryOf(declaration, audit, req, whoOf(audit, session));
      if (entry) await recordAuditEvent(req.em, entry);
    },
  };
  if (!isAudited(declaration)) return audit;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.write = ((...args: unknown[]) => {
    if (state === 'pending' && res.statusCode < 400)
      throw new Error(`${req.method} ${req.path}: audit.commit() must come before streaming`);
    return write(...args);
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    if (state === 'written' || res.statusCode >= 400) return end(...args);
    audit.commit().then(
      () => end(...args),
      (error: unknown) => {
        ctx.logger.error({ err: error }, 'the audit entry could not be written');
        // Nothing was sent yet: the prepared answer's headers give way to the error's.
        for (const name of ['Location', 'Content-Length', 'ETag']) res.removeHeader(name);
        res.status(500).type('text/plain');
        end('The change was made but could not be recorded in the audit log.');
      },
    );
    return res;
  }) as Response['end'];
  return audit;
}

/**
 * The actor: the session's user, or whoever a signed-out page says acted (who signed in).
 * A session page that moved its user to another account (switching, a new account) names
 * that account in `actor`, and the entry goes there.
 */
function whoOf(
  audit: AuditNote,
  session: DashboardSession | undefined,
): { accountId: string; actor: AuditActor } | undefined {
  if (session)
    return {
      accountId: audit.actor?.accountId ?? session.accountId,
      actor: { type: 'user', userId: session.userId, label: session.email },
    };
  if (audit.actor)
    return {
      accountId: audit.actor.accountId,
      actor: { type: 'user', userId: audit.actor.userId },
    };
  return undefined;
}
