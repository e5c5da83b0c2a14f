/**
 * The id of one delivery of a submission to a plugin within one workflow run: the same for
 * every retry (receivers deduplicate on it: `webhook-id`), new for a replay or a reset run.
 */
export function deliveryIdOf(runId: string, pluginId: string): string {
  return `dlv_${runId.replaceAll('-', '')}_${pluginId}`;
}
