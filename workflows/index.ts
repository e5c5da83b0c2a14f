// The workflow bundle's entry: every workflow the worker registers.
export { recoveryWorkflow } from './recovery-workflow';
export { retentionWorkflow } from './retention-workflow';
export { submissionWorkflow } from './submission-workflow';
