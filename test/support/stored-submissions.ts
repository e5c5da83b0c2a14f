import { expect } from 'vitest';
import { expectAnswer, type AnswerBody, type ApiClient } from './api-client';
import type { TestStack } from './test-stack';

// What ingest stored, read back from the database (spam included) or through the API.

/** Rows stored for a form, spam included. */
export async function countSubmissions(stack: TestStack, formId: string): Promise<number> {
  const [row] = await stack.sql<{ n: number }>(
    'select count(*)::int as n from submissions where form_id = ?',
    [formId],
  );
  return row!.n;
}

/** The single stored submission of a form (fails when there is not exactly one). */
export async function onlySubmission(stack: TestStack, formId: string) {
  const rows = await stack.sql<{
    id: string;
    payload_json: Record<string, unknown>;
    is_spam: boolean;
    spam_reason: string | null;
  }>('select id, payload_json, is_spam, spam_reason from submissions where form_id = ?', [formId]);
  expect(rows).toHaveLength(1);
  return { ...rows[0]!, id: String(rows[0]!.id) };
}

/** The full submission as the API returns it. */
export async function readSubmission(
  api: ApiClient,
  id: string,
): Promise<AnswerBody<'GET /api/submissions/{id}', 200>['submission']> {
  const res = await api.get(`/api/submissions/${id}`);
  return expectAnswer(res, 'GET /api/submissions/{id}', 200).submission;
}
