import type { Api } from '../api.js';
import { unwrap } from '../errors.js';
import type {
  CreatePluginBody,
  IngestResult,
  Plugin,
  PluginDeleted,
  PluginList,
  SubmissionFields,
  UpdatePluginBody,
} from '../types.js';

/**
 * `/api/forms/{form_id}/plugins`: a form's delivery plugins (only webhooks can be created
 * through the API). `formId` is a form id or its endpoint_token.
 */
export class Plugins {
  readonly #api: Api;
  readonly #ingest: Api;
  readonly #authorization: Record<string, string>;

  /** `ingest` posts test submissions, with `authorization` (the key) on that request only. */
  constructor(api: Api, ingest: Api, authorization: Record<string, string>) {
    this.#api = api;
    this.#ingest = ingest;
    this.#authorization = authorization;
  }

  async list(formId: string): Promise<PluginList> {
    const path = { form_id: formId };
    return unwrap(this.#api.GET('/api/forms/{form_id}/plugins', { params: { path } }));
  }

  async get(formId: string, id: string): Promise<Plugin> {
    const path = { form_id: formId, id };
    const answer = await unwrap(
      this.#api.GET('/api/forms/{form_id}/plugins/{id}', { params: { path } }),
    );
    return answer.plugin;
  }

  /** The answer carries the webhook's `signing_secret`, shown this once. */
  async create(formId: string, body: CreatePluginBody): Promise<Plugin> {
    const path = { form_id: formId };
    const answer = await unwrap(
      this.#api.POST('/api/forms/{form_id}/plugins', { params: { path }, body }),
    );
    return answer.plugin;
  }

  async update(formId: string, id: string, body: UpdatePluginBody): Promise<Plugin> {
    const path = { form_id: formId, id };
    const answer = await unwrap(
      this.#api.PATCH('/api/forms/{form_id}/plugins/{id}', { params: { path }, body }),
    );
    return answer.plugin;
  }

  async delete(formId: string, id: string): Promise<PluginDeleted> {
    const path = { form_id: formId, id };
    return unwrap(this.#api.DELETE('/api/forms/{form_id}/plugins/{id}', { params: { path } }));
  }

  /** A new signing secret (the old one stops working at once). */
  async rotateSecret(formId: string, id: string): Promise<Plugin> {
    const path = { form_id: formId, id };
    const answer = await unwrap(
      this.#api.POST('/api/forms/{form_id}/plugins/{id}/rotate_secret', { params: { path } }),
    );
    return answer.plugin;
  }

  /**
   * Posts `fields` to the form as a test (`/json/{endpoint_token}?test=true`): its plugins
   * deliver once, synchronously, and `deliveries` reports each. Needs the key's
   * `can_create_forms`; the submission is stored like any other.
   */
  async test(endpointToken: string, fields: SubmissionFields): Promise<IngestResult> {
    return unwrap(
      this.#ingest.POST('/json/{endpoint_token}', {
        params: { path: { endpoint_token: endpointToken }, query: { test: 'true' } },
        body: fields,
        headers: this.#authorization,
      }),
    );
  }
}
