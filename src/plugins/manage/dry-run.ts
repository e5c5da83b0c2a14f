import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form } from '../../db/entities';
import { selectRecentSample } from '../../db/sql/recent-payloads';
import { conditionsMatch, type Conditions } from './conditions';

/** How many of a form's latest submissions the dry run judges. */
export const DRY_RUN_SAMPLE = 100;
/** A submission stored larger than this is left out of the dry run, unread. */
export const DRY_RUN_MAX_PAYLOAD_BYTES = 64 * 1024;
/** How long a form's sample is reused: the settings page reads its submissions once a minute. */
export const DRY_RUN_CACHE_MS = 60_000;
/** How many samples are kept, and how big one may be to be kept (its JSON, in characters). */
const CACHED_SAMPLES = 200;
const MAX_CACHED_SAMPLE_CHARS = 256 * 1024;
const MAX_FIELD_NAMES = 200;

/** What a form's recent submissions tell the settings page (docs/plugins.md, "Conditions"). */
export type SubmissionSample = {
  /** Of each judged submission, only the fields the conditions name. */
  payloads: Record<string, unknown>[];
  /** How many were past DRY_RUN_MAX_PAYLOAD_BYTES and left out. */
  skipped: number;
  /** The form's field list's names, then any other name its recent submissions used. */
  fieldNames: string[];
};

type Read = { payloads: Record<string, unknown>[]; skipped: number; names: string[] };
const samples = new Map<string, { read: Read; expires: number }>();

/** The sample read for `names`, or kept from a read of the last minute (per form and names). */
async function cachedRead(em: EntityManager, formId: string, names: string[]): Promise<Read> {
  const key = JSON.stringify([formId, names]);
  const now = Date.now();
  const kept = samples.get(key);
  if (kept && kept.expires > now) return kept.read;
  samples.delete(key);
  const found = await selectRecentSample(em, formId, {
    names,
    limit: DRY_RUN_SAMPLE,
    maxBytes: DRY_RUN_MAX_PAYLOAD_BYTES,
    maxNames: MAX_FIELD_NAMES,
  });
  const read = { payloads: found.picked, skipped: found.skipped, names: found.names };
  if (JSON.stringify(found.picked).length > MAX_CACHED_SAMPLE_CHARS) return read;
  for (const [old, entry] of samples) if (entry.expires <= now) samples.delete(old);
  // Maps iterate in insertion order: the first key is the oldest.
  if (samples.size >= CACHED_SAMPLES) samples.delete(samples.keys().next().value!);
  samples.set(key, { read, expires: now + DRY_RUN_CACHE_MS });
  return read;
}

/**
 * The form's last DRY_RUN_SAMPLE non-spam submissions, each read only for the fields the
 * conditions name (those typed, or those saved), and the field names they and the form know.
 * Kept a minute per form and names: a settings page opened again reads nothing.
 */
export async function sampleSubmissions(
  em: EntityManager,
  form: Form,
  conditions: Conditions | null,
): Promise<SubmissionSample> {
  const ruleNames = [...new Set((conditions?.rules ?? []).map((rule) => rule.field))].sort();
  const read = await cachedRead(em, form.id, ruleNames);
  const names = new Set((form.fields ?? []).map((field) => field.name));
  for (const name of read.names) names.add(name);
  return {
    payloads: read.payloads,
    skipped: read.skipped,
    fieldNames: [...names].slice(0, MAX_FIELD_NAMES),
  };
}

/** The dry run: of the sample, how many these conditions would send (null conditions: all). */
export function dryRun(
  sample: SubmissionSample,
  conditions: Conditions | null,
): { sent: number; of: number; skipped: number } {
  const sent = sample.payloads.filter((payload) => conditionsMatch(conditions, payload)).length;
  return { sent, of: sample.payloads.length, skipped: sample.skipped };
}
