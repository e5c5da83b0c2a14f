import type { Api } from '../api.js';
import { unwrap } from '../errors.js';
import { items, pages } from '../pages.js';
import type {
  CreateDomainBody,
  Domain,
  DomainDeleted,
  DomainList,
  DomainListQuery,
} from '../types.js';

/** `/api/domains`: the account's custom domains for hosted form pages (docs/custom-domains.md). */
export class Domains {
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  async list(query: DomainListQuery = {}): Promise<DomainList> {
    return unwrap(this.#api.GET('/api/domains', { params: { query } }));
  }

  /** Every domain of the account, page after page. */
  all(query: DomainListQuery = {}): AsyncGenerator<Domain, void, undefined> {
    return items(pages((q) => this.list(q), query));
  }

  async get(domain: string): Promise<Domain> {
    const path = { domain };
    return (await unwrap(this.#api.GET('/api/domains/{domain}', { params: { path } }))).domain;
  }

  /** Claims a domain; the answer lists the DNS records to add before `verify`. */
  async create(body: CreateDomainBody): Promise<Domain> {
    return (await unwrap(this.#api.POST('/api/domains', { body }))).domain;
  }

  /** Checks the domain's DNS records now. */
  async verify(domain: string): Promise<Domain> {
    const path = { domain };
    const answer = await unwrap(
      this.#api.POST('/api/domains/{domain}/verify', { params: { path } }),
    );
    return answer.domain;
  }

  async delete(domain: string): Promise<DomainDeleted> {
    const path = { domain };
    return unwrap(this.#api.DELETE('/api/domains/{domain}', { params: { path } }));
  }
}
