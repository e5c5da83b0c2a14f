/**
 * What a form's submitters may do through their manage link (docs/manage-links.md), stored
 * in `forms.submitter_access`: nothing (`none`, the default), see what was stored (`view`),
 * also change it (`edit`), or also delete it (`edit_delete`).
 */
export type SubmitterAccess = 'none' | 'view' | 'edit' | 'edit_delete';

export const SUBMITTER_ACCESS_VALUES = ['none', 'view', 'edit', 'edit_delete'] as const;
