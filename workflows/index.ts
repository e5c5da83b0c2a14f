// The workflow bundle's entry: every workflow the worker registers.
export { submissionWorkflow } from './submission-workflow';
