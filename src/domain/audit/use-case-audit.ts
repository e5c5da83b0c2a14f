/**
 * What a use case tells its caller's audit entry (docs/audit-log.md). The API route or the
 * dashboard page declares the action and the framework writes the entry once the answer
 * succeeded (src/http/kit/routing/audit-declaration.ts); only the use case knows the target it
 * created, the words of the summary, and whether anything changed at all (`skip`).
 */
export type UseCaseAudit = {
  targetId?: string;
  summary?: string;
  /** Nothing changed: no entry (docs/audit-log.md). */
  skip?: boolean;
};
