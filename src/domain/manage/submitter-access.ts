export { SUBMITTER_ACCESS_VALUES, type SubmitterAccess } from '../../db/entities/submitter-access';
import type { SubmitterAccess } from '../../db/entities/submitter-access';

/** Whether the access lets the submitter change the stored values. */
export const mayEdit = (access: SubmitterAccess) => access === 'edit' || access === 'edit_delete';

/** Whether the access lets the submitter delete the submission. */
export const mayDelete = (access: SubmitterAccess) => access === 'edit_delete';
