import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ByteLruCache } from '../cache/byte-lru-cache';
import type { Form } from '../../db/entities';
import { findFormByToken } from './forms';

/** What ingest needs of a form: a read-only snapshot. */
export type IngestForm = Readonly<
  Pick<
    Form,
    | 'id'
    | 'accountId'
    | 'name'
    | 'endpointToken'
    | 'isActive'
    | 'acceptFiles'
    | 'allowedDomains'
    | 'successRedirectUrl'
    | 'captcha'
    | 'fields'
    | 'unknownFields'
    | 'page'
    | 'domain'
    | 'limits'
    | 'submitterAccess'
    | 'editUntil'
  >
>;

/**
 * A snapshot as the cache hands it out: with `version`, a digest of everything in it, which
 * changes whenever the form does, however it was changed (hosted pages are cached by it).
 */
export type CachedForm = IngestForm & { readonly version: string };

/**
 * What a snapshot is taken to weigh in memory: twice its serialized length (parsed JSON
 * takes about 1.2 to 1.4 times its text in V8, more with many tiny strings) and a constant
 * for the object and its map entry.
 */
export const snapshotBytes = (serializedLength: number) => 2 * serializedLength + 1024;

/**
 * Ingest and hosted pages read the same few forms again and again; this keeps each for
 * `ttlMs`. A form changed through this process is forgotten at once; a change made through
 * another process is seen within `ttlMs`. Unknown tokens are not cached, so a new form works
 * at once. The cache is bounded by bytes (FORM_CACHE_MAX_BYTES): expired snapshots are swept
 * and the least recently used go first.
 */
export class FormCache {
  private readonly entries: ByteLruCache<CachedForm>;

  constructor(options: { maxBytes: number; ttlMs?: number; now?: () => number }) {
    this.entries = new ByteLruCache({
      maxBytes: options.maxBytes,
      ttlMs: options.ttlMs ?? 1000,
      now: options.now,
    });
  }

  /** The estimated bytes of the snapshots kept, never above the cap. */
  get bytes(): number {
    return this.entries.bytes;
  }

  /** `em` is asked for only on a miss (a request's fork is made when first used). */
  async byToken(em: () => EntityManager, token: string): Promise<CachedForm | null> {
    const hit = this.entries.get(token);
    if (hit) return hit;
    const found = await findFormByToken(em(), token);
    if (!found) {
      this.entries.delete(token);
      return null;
    }
    const snapshot: IngestForm = {
      id: found.id,
      accountId: found.accountId,
      name: found.name,
      endpointToken: found.endpointToken,
      isActive: found.isActive,
      acceptFiles: found.acceptFiles,
      allowedDomains: [...found.allowedDomains],
      successRedirectUrl: found.successRedirectUrl,
      captcha: found.captcha ?? null,
      fields: found.fields ?? null,
      unknownFields: found.unknownFields,
      page: found.page ?? null,
      domain: found.domain ?? null,
      limits: found.limits ?? null,
      submitterAccess: found.submitterAccess,
      editUntil: found.editUntil ?? null,
    };
    const serialized = JSON.stringify(snapshot);
    const form: CachedForm = {
      ...snapshot,
      version: createHash('sha256').update(serialized).digest('base64url'),
    };
    this.entries.set(token, form, snapshotBytes(serialized.length));
    return form;
  }

  forget(token: string): void {
    this.entries.delete(token);
  }
}
