import type { EntityManager } from '@mikro-orm/postgresql';
import { ping } from '../../db/sql/server';
import { countUnstartedSubmissions } from '../../db/sql/submissions';

// What readiness (`/readyz`) asks of PostgreSQL.

/** Resolves when PostgreSQL answers a trivial query. */
export function pingDatabase(em: EntityManager): Promise<void> {
  return ping(em);
}

/** Submissions stored whose workflow is not started yet, in all processes. */
export function countSubmissionsAwaitingWorkflow(em: EntityManager): Promise<number> {
  return countUnstartedSubmissions(em);
}
