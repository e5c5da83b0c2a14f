import type { EntityManager } from '@mikro-orm/postgresql';
import { SubmissionFile } from '../../db/entities';

/** The file rows without their content (a lazy column), only to show what was uploaded. */
export function uploadedFiles(em: EntityManager, submissionId: string) {
  return em.find(
    SubmissionFile,
    { submissionId },
    { fields: ['id', 'fieldName', 'filename', 'contentType', 'size'], orderBy: { id: 'asc' } },
  );
}
