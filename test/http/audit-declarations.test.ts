import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION } from '../../src/domain/audit/audit-log';
import { PAGES, ROUTES } from '../../src/http/routes';
import type { AuditDeclaration } from '../../src/http/kit/routing/audit-declaration';

// Every change is declared for the audit log (docs/audit-log.md): generated from the lists the
// app registers, so a new operation or page that changes something cannot go unrecorded.

type Declared = { name: string; mutating: boolean; audit: AuditDeclaration | undefined };

const operations: Declared[] = [
  ...ROUTES.map((route) => ({
    name: `${route.method.toUpperCase()} ${route.path}`,
    mutating: ['post', 'patch', 'delete'].includes(route.method),
    audit: route.audit,
  })),
  ...PAGES.map((page) => ({
    name: `page ${page.method.toUpperCase()} ${page.path}`,
    mutating: page.method === 'post',
    audit: page.audit,
  })),
];

/** What may change nothing in an account by a person or a key, and says so. */
const EXEMPT = [
  'POST /f/{endpoint_token}',
  // The account's log is deleted with it: the service log records who deleted it.
  'page POST /app/account/delete',
  'POST /json/{endpoint_token}',
  // A submitter's own submission: the delete records itself, with the submitter as actor.
  'POST /s/{submission_id}/{secret}',
  'POST /s/{submission_id}/{secret}/delete',
  'page POST /confirm',
  'page POST /forgot',
  'page POST /invitations/unsubscribe',
  'page POST /recipients/confirm',
  'page POST /recipients/unsubscribe',
  // The plugin pages' old addresses answer 308 to the new ones, which record the change.
  'page POST /app/forms/:formId/webhooks',
  ...['enable', 'disable', 'delete', 'rotate', 'recover'].map(
    (action) => `page POST /app/forms/:formId/webhooks/:pluginId/${action}`,
  ),
].sort();

describe('audit declarations', () => {
  it('every post, patch and delete declares an action or an exemption with its reason', () => {
    const missing = operations.filter((o) => o.mutating && !o.audit).map((o) => o.name);
    expect(missing).toEqual([]);
    for (const o of operations.filter((o) => o.audit)) {
      const audit = o.audit!;
      if ('exempt' in audit) expect(audit.exempt.trim(), o.name).not.toBe('');
      else expect(audit.action, o.name).toMatch(AUDIT_ACTION);
    }
  });

  it('the exemptions are exactly the expected list', () => {
    const exempt = operations.filter((o) => o.audit && 'exempt' in o.audit).map((o) => o.name);
    expect(exempt.sort()).toEqual(EXEMPT);
  });

  it('the sensitive reads are recorded: exports, the e-mail confirmation link, single sign-on', () => {
    const readsRecorded = operations
      .filter((o) => !o.mutating && o.audit && 'action' in o.audit)
      .map((o) => o.name)
      .sort();
    expect(readsRecorded).toEqual([
      'page GET /app/forms/:formId/export.csv',
      'page GET /app/forms/:formId/export.json',
      'page GET /confirm',
      'page GET /login/oidc/callback',
    ]);
  });
});
