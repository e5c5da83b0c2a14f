import type { Api } from '../api.js';
import { unwrap } from '../errors.js';
import { items, pages } from '../pages.js';
import type { Submission, SubmissionList, SubmissionListQuery } from '../types.js';

type Walk = AsyncGenerator<SubmissionList, void, undefined>;

/**
 * `/api/submissions`: the non-spam and spam lists (filters `form_id`, `q`, `range`, which
 * defaults to `24h`: `all` lifts it) and one submission by id.
 */
export class Submissions {
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  /** One page of non-spam submissions, newest first. */
  async list(query: SubmissionListQuery = {}): Promise<SubmissionList> {
    return unwrap(this.#api.GET('/api/submissions', { params: { query } }));
  }

  /** One page of spam submissions (needs `can_read_spam_submissions`). */
  async listSpam(query: SubmissionListQuery = {}): Promise<SubmissionList> {
    return unwrap(this.#api.GET('/api/submissions/spam', { params: { query } }));
  }

  /** Every page of the non-spam list, following each page's `next` link (page or cursor). */
  pages(query: SubmissionListQuery = {}): Walk {
    return pages((q) => this.list(q), query);
  }

  /** Every non-spam submission the query selects, page after page: `for await (const s of ...)`. */
  all(query: SubmissionListQuery = {}): AsyncGenerator<Submission, void, undefined> {
    return items(this.pages(query));
  }

  /** Every spam submission the query selects, page after page. */
  allSpam(query: SubmissionListQuery = {}): AsyncGenerator<Submission, void, undefined> {
    return items(pages((q) => this.listSpam(q), query));
  }

  /** The full submission (a spam one only with `can_read_spam_submissions`, else 404). */
  async get(id: string): Promise<Submission> {
    const answer = await unwrap(
      this.#api.GET('/api/submissions/{id}', { params: { path: { id } } }),
    );
    return answer.submission;
  }
}
