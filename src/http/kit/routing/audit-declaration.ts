import type { Request } from 'express';
import type { AuditActor, AuditEntry } from '../../../domain/audit/audit-log';
import { clientAddress } from '../middleware/client-address';

/*
 * What an operation or page declares for the audit log (docs/audit-log.md). Every post,
 * patch and delete declares one (the types demand it): the action it records, the type of
 * its target, or an exemption with the reason (not a change of an account by a person or a
 * key). registerRoutes and registerPages write the entry for every answer below 400.
 */
export type AuditDeclaration =
  | {
      /** Dotted, lower case: `form.created`. */
      action: string;
      /** What the target id names (`form`, `plugin`, `api_key`). */
      target?: string;
      /** The path parameter that is the target's id; default the last one of the path. */
      targetParam?: string;
    }
  | { exempt: string };

/**
 * Handed to the handler as `audit`: what only the handler knows. A created id, a count, the
 * actor of a signed-out page (who just signed in), or `skip` when the answer changed nothing
 * (a form shown again with its errors).
 */
export type AuditNote = {
  /**
   * The action, when the target decides it: one page serves every plugin type, and a
   * webhook's changes keep their `webhook.*` names (plugins/plugin-change-names.ts).
   */
  action?: string;
  targetType?: string;
  targetId?: string;
  summary?: string;
  /** A guest page's actor: the user and account it acted in. No actor, no entry. */
  actor?: { accountId: string; userId: string };
  skip?: boolean;
};

export const isAudited = (
  declaration: AuditDeclaration | undefined,
): declaration is Extract<AuditDeclaration, { action: string }> =>
  declaration !== undefined && 'action' in declaration;

/** The path parameter naming the target: declared, else the path's last one. */
function targetIdOf(
  declaration: Extract<AuditDeclaration, { action: string }>,
  params: Record<string, string>,
): string | undefined {
  if (declaration.targetParam) return params[declaration.targetParam];
  const names = Object.keys(params);
  return names.length ? params[names[names.length - 1]!] : undefined;
}

/** The entry of an answered request, or null when there is nothing to write. */
export function auditEntryOf(
  declaration: AuditDeclaration | undefined,
  note: AuditNote,
  req: Request,
  who: { accountId: string; actor: AuditActor } | undefined,
): AuditEntry | null {
  if (!isAudited(declaration) || note.skip || !who) return null;
  return {
    accountId: who.accountId,
    actor: who.actor,
    clientAddress: clientAddress(req),
    action: note.action ?? declaration.action,
    targetType: note.targetType ?? declaration.target ?? null,
    targetId:
      note.targetId ?? targetIdOf(declaration, req.params as Record<string, string>) ?? null,
    summary: note.summary ?? '',
  };
}
