/**
 * Links into the Temporal Web UI (TEMPORAL_UI_URL, or the embedded dev server's), for the
 * delivery log. Without a known UI there are no links.
 */
export type TemporalUiLinks = {
  /** The submission's workflows: its first run and every replay. */
  submission(submissionId: string): string;
  /** One run's event history. */
  run(workflowId: string, runId: string): string;
};

export function temporalUiLinks(uiUrl: string | null, namespace: string): TemporalUiLinks | null {
  if (!uiUrl) return null;
  const ns = `${uiUrl}/namespaces/${encodeURIComponent(namespace)}`;
  return {
    submission: (submissionId) =>
      `${ns}/workflows?query=${encodeURIComponent(`WorkflowId STARTS_WITH "submission-${submissionId}"`)}`,
    run: (workflowId, runId) =>
      `${ns}/workflows/${encodeURIComponent(workflowId)}/${encodeURIComponent(runId)}/history`,
  };
}
