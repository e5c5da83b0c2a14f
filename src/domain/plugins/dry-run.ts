import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form } from '../../db/entities';
import { selectRecentPayloads } from '../../db/sql/recent-payloads';
import { conditionsMatch, type Conditions } from './conditions';

/** How many of a form's latest submissions the dry run judges. */
export const DRY_RUN_SAMPLE = 100;

/** What a form's recent submissions tell the settings page (docs/plugins.md, "Conditions"). */
export type SubmissionSample = {
  payloads: Record<string, unknown>[];
  /** The form's field list's names, then any other name its recent submissions used. */
  fieldNames: string[];
};

/** The form's last DRY_RUN_SAMPLE non-spam submissions and the field names they and the form know. */
export async function sampleSubmissions(em: EntityManager, form: Form): Promise<SubmissionSample> {
  const payloads = await selectRecentPayloads(em, form.id, DRY_RUN_SAMPLE);
  const names = new Set((form.fields ?? []).map((field) => field.name));
  for (const payload of payloads) for (const name of Object.keys(payload)) names.add(name);
  return { payloads, fieldNames: [...names].slice(0, 200) };
}

/** The dry run: of the sample, how many these conditions would send (null conditions: all). */
export function dryRun(
  sample: SubmissionSample,
  conditions: Conditions | null,
): { sent: number; of: number } {
  const sent = sample.payloads.filter((payload) => conditionsMatch(conditions, payload)).length;
  return { sent, of: sample.payloads.length };
}
