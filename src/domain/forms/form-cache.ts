import type { EntityManager } from '@mikro-orm/postgresql';
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
  >
>;

const MAX_ENTRIES = 10_000;

/**
 * Ingest reads the same few forms for every submission; this keeps each for `ttlMs`. A form
 * changed through this process is forgotten at once; a change made through another process
 * is seen within `ttlMs`. Unknown tokens are not cached, so a new form works at once.
 */
export class FormCache {
  private readonly entries = new Map<string, { form: IngestForm; expires: number }>();

  constructor(private readonly ttlMs = 1000) {}

  /** `em` is asked for only on a miss (a request's fork is made when first used). */
  async byToken(em: () => EntityManager, token: string): Promise<IngestForm | null> {
    const now = Date.now();
    const hit = this.entries.get(token);
    if (hit && hit.expires > now) return hit.form;
    const found = await findFormByToken(em(), token);
    if (!found) {
      this.entries.delete(token);
      return null;
    }
    const form: IngestForm = {
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
    };
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(token, { form, expires: now + this.ttlMs });
    return form;
  }

  forget(token: string): void {
    this.entries.delete(token);
  }
}
