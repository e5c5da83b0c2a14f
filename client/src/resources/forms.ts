import type { Api } from '../api.js';
import { unwrap } from '../errors.js';
import { items, pages } from '../pages.js';
import type { CreateFormBody, Form, FormList, FormListQuery, UpdateFormBody } from '../types.js';

/**
 * `/api/forms`: a form's settings, its `fields`, its hosted `page` and its `limits` are all
 * parts of one form, created with `create` and changed with `update` (only what is sent
 * changes). `id` is a form id or its endpoint_token.
 */
export class Forms {
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  /** One page of the account's forms, newest first, with `meta` and the page links. */
  async list(query: FormListQuery = {}): Promise<FormList> {
    return unwrap(this.#api.GET('/api/forms', { params: { query } }));
  }

  /** Every page, from the one `query` asks for, following each page's `next` link. */
  pages(query: FormListQuery = {}): AsyncGenerator<FormList, void, undefined> {
    return pages((q) => this.list(q), query);
  }

  /** Every form of the account, page after page. */
  all(query: FormListQuery = {}): AsyncGenerator<Form, void, undefined> {
    return items(this.pages(query));
  }

  async get(id: string): Promise<Form> {
    const answer = await unwrap(this.#api.GET('/api/forms/{id}', { params: { path: { id } } }));
    return answer.form;
  }

  async create(body: CreateFormBody): Promise<Form> {
    return (await unwrap(this.#api.POST('/api/forms', { body }))).form;
  }

  async update(id: string, body: UpdateFormBody): Promise<Form> {
    const answer = await unwrap(
      this.#api.PATCH('/api/forms/{id}', { params: { path: { id } }, body }),
    );
    return answer.form;
  }
}
