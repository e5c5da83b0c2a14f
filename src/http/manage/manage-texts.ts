/**
 * Every built-in text of the manage-link pages (docs/manage-links.md), in English, in one
 * place so they can move into the hosted pages' message catalogue as they are. The owner's
 * own texts (the page's title, the field labels) come from the form.
 */
export const MANAGE_TEXTS = {
  linkIntro:
    'Keep this private link to come back to your submission. It is shown only now: save it ' +
    'or bookmark it. Anyone with it can open your submission.',
  linkLabel: 'Your link to this submission',
  viewTitle: 'Your submission',
  receivedAt: 'Received',
  versionLabel: 'Version',
  editUntil: 'You can change or delete it until',
  editClosed: 'It can no longer be changed.',
  noValue: '(empty)',
  fileValue: 'file',
  editAction: 'Change your answers',
  deleteAction: 'Delete this submission',
  editTitle: 'Change your answers',
  editSubmit: 'Save changes',
  editSaved: 'Your changes were saved.',
  editFilesKept: 'Files you sent stay as they are: they cannot be changed here.',
  editClosedTitle: 'This submission can no longer be changed',
  editClosedBody:
    'The time to change this submission has passed, or the form has closed. What you sent ' +
    'is kept as it was.',
  deleteTitle: 'Delete your submission?',
  deleteBody: 'This deletes what you sent, with any files, for good. It cannot be undone.',
  deleteConfirm: 'Delete for good',
  deleteCancel: 'Keep it',
  deletedTitle: 'Your submission was deleted',
  deletedBody: 'What you sent, with any files, has been deleted.',
  notFoundTitle: 'Nothing here',
  notFoundBody: 'This link opens nothing: it is wrong, or what it opened is no longer here.',
} as const;
