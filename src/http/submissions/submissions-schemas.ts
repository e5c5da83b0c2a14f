import { z } from 'zod';
import { RANGES } from '../../domain/submissions/range';
import { cursorQueryParameter } from '../kit/answers/list-cursor';
import { paginationQuery } from '../kit/answers/pagination';
import { text } from '../kit/answers/text';

export const submissionListQuery = paginationQuery
  .extend({
    form_id: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .describe('a form id or endpoint_token; `all` or omitted: every form'),
    q: text().trim().max(200).optional().describe('full-text search over the payloads'),
    range: z
      .enum(RANGES, { error: `must be one of ${RANGES.join(', ')}` })
      .default('24h')
      .describe('how far back to look'),
    cursor: cursorQueryParameter,
  })
  .meta({ id: 'SubmissionListQuery' });

export type SubmissionListQuery = z.output<typeof submissionListQuery>;
