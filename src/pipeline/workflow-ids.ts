/** Workflow ids are derived from submission ids, so a second start of the same one is refused. */
export const submissionWorkflowId = (submissionId: string) => `submission-${submissionId}`;

/** A replay is a workflow of its own beside the submission's first one. */
export const replayWorkflowId = (submissionId: string, nonce: string) =>
  `submission-${submissionId}-replay-${nonce}`;
