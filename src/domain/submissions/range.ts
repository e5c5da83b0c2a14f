import { RANGE_INTERVALS, type SubmissionRange } from '../../db/sql/submissions';

/**
 * How far back the submission lists look (docs/api-conventions.md, Limits: the specification's
 * values plus `all`): the ranges src/db/sql/submissions.ts has an interval for, in its order.
 */
export const RANGES = Object.keys(RANGE_INTERVALS) as [SubmissionRange, ...SubmissionRange[]];
