/** Workflow ids are derived from submission ids, so a second start of the same one is refused. */
export const submissionWorkflowId = (submissionId: string) => `submission-${submissionId}`;

/** A replay is a workflow of its own beside the submission's first one. */
export const replayWorkflowId = (submissionId: string, nonce: string) =>
  `submission-${submissionId}-replay-${nonce}`;

/**
 * The delivery of a submitter's edit (docs/manage-links.md): one workflow per version, beside
 * the submission's first one, so a second start of the same version is refused.
 */
export const versionWorkflowId = (submissionId: string, version: number) =>
  `submission-${submissionId}-v${version}`;

/** The delivery of a submitter's delete (docs/manage-links.md): once per submission. */
export const deletionWorkflowId = (submissionId: string) => `submission-${submissionId}-deleted`;
