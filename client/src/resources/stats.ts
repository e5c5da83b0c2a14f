import type { Api } from '../api.js';
import { unwrap } from '../errors.js';
import type { AccountStats, FormStats } from '../types.js';

/** `/api/form_stats/{form_id}` and `/api/stats`. */
export class Stats {
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  /** One form's counts (any valid key). */
  async form(formId: string): Promise<FormStats> {
    const path = { form_id: formId };
    return (await unwrap(this.#api.GET('/api/form_stats/{form_id}', { params: { path } }))).stats;
  }

  /**
   * The account's totals. The API answers this to a signed-in dashboard session only: with
   * an API key it is a FormwardError `unauthorized` (401).
   */
  async account(): Promise<AccountStats> {
    return (await unwrap(this.#api.GET('/api/stats'))).stats;
  }
}
