import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form } from '../../db/entities';
import { selectRecentSample } from '../../db/sql/recent-payloads';
import { ByteLruCache } from '../../domain/cache/byte-lru-cache';
import { conditionsMatch, type Conditions } from './conditions';

/** How many of a form's latest submissions the dry run judges. */
export const DRY_RUN_SAMPLE = 100;
/** A submission stored larger than this is left out of the dry run, unread. */
export const DRY_RUN_MAX_PAYLOAD_BYTES = 64 * 1024;
/** How long a form's sample is reused: the settings page reads its submissions once a minute. */
export const DRY_RUN_CACHE_MS = 60_000;
/** The samples kept, in bytes of their JSON, and the largest one kept. */
export const DRY_RUN_CACHE_MAX_BYTES = 16 * 1024 * 1024;
export const MAX_CACHED_SAMPLE_BYTES = 256 * 1024;
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

/** Samples by form and names, a minute each, within DRY_RUN_CACHE_MAX_BYTES. */
export function createSampleCache(now?: () => number): ByteLruCache<Read> {
  return new ByteLruCache<Read>({
    maxBytes: DRY_RUN_CACHE_MAX_BYTES,
    ttlMs: DRY_RUN_CACHE_MS,
    now,
  });
}

const samples = createSampleCache();

/** What a sample costs the cache: its JSON's bytes; past MAX_CACHED_SAMPLE_BYTES it is not kept. */
export function sampleBytes(read: Read): number {
  return Buffer.byteLength(JSON.stringify(read));
}

/** The sample read for `names`, or kept from a read of the last minute (per form and names). */
async function cachedRead(em: EntityManager, formId: string, names: string[]): Promise<Read> {
  const key = JSON.stringify([formId, names]);
  const kept = samples.get(key);
  if (kept) return kept;
  const found = await selectRecentSample(em, formId, {
    names,
    limit: DRY_RUN_SAMPLE,
    maxBytes: DRY_RUN_MAX_PAYLOAD_BYTES,
    maxNames: MAX_FIELD_NAMES,
  });
  const read = { payloads: found.picked, skipped: found.skipped, names: found.names };
  const bytes = sampleBytes(read);
  if (bytes <= MAX_CACHED_SAMPLE_BYTES) samples.set(key, read, bytes);
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
