/** Workflow ids are derived from submission ids, so a second start of the same one is refused. */
export const submissionWorkflowId = (submissionId: string) => `submission-${submissionId}`;
