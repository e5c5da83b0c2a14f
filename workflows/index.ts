// The workflow bundle's entry: every workflow the worker registers.
export { recoveryWorkflow } from './recovery-workflow';
export { submissionWorkflow } from './submission-workflow';
