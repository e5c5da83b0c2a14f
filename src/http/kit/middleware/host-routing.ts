import net from 'node:net';
import type { RequestHandler } from 'express';
import { servedFormToken } from '../../../domain/domains/domain-forms';
import { findDomainClaim } from '../../../domain/domains/domains';
import type { AppContext } from '../../../runtime/app-context';
import { HttpError } from '../errors/http-error';
import { serviceHosts } from './service-hosts';

/** `/{slug}` and the form routes a page on a custom domain needs, as `/f/{token}…` has them. */
const PAGE_PATH = /^\/([a-z0-9-]{1,64})(\/thanks|\/challenge|\/altcha\.js|\/autocomplete\.js)?\/?$/;

const notFound = () => new HttpError('not_found', 'not found');

/**
 * Hosts that reach the whole service, besides BASE_URL's, INGEST_URL's and FORM_PAGES_TARGET:
 * IP addresses (probes and clients calling 127.0.0.1:PORT), `localhost` and `*.localhost`,
 * and single-label names (a container's service name, as docker-compose health checks and
 * a reverse proxy in the same network use). None of them can be a custom domain.
 */
function isLocalHost(host: string): boolean {
  return (
    host === '' ||
    net.isIP(host) !== 0 ||
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    !host.includes('.')
  );
}

/**
 * Host routing (docs/custom-domains.md), before every route. A request for one of the
 * service's hosts goes on unchanged. On a claimed custom domain only its forms' pages answer:
 * `/{slug}` and `/{slug}/thanks|challenge|altcha.js|autocomplete.js` are served as
 * `/f/{endpoint_token}…` (req.url rewritten; `res.locals.formPageBase` tells the page where it
 * lives), while the domain serves; everything else there is 404. Any other host is 404 too,
 * unless neither BASE_URL nor INGEST_URL is set (a local install reached by any name).
 */
export function hostRouting(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const host = (req.hostname ?? '')
      .replace(/^\[(.*)\]$/, '$1')
      .toLowerCase()
      .replace(/\.$/, '');
    if (isLocalHost(host) || serviceHosts(ctx.urls, ctx.domainChecks.target()).includes(host))
      return next();
    if (!(await findDomainClaim(req.em, host))) {
      if (ctx.config.urlsFollowPort) return next();
      throw notFound();
    }
    const [path, query = ''] = splitUrl(req.url);
    const page = PAGE_PATH.exec(path);
    const token = page ? await servedFormToken(req.em, host, page[1]!) : null;
    if (!page || !token) throw notFound();
    res.locals.formPageBase = `/${page[1]}`;
    req.url = `/f/${token}${page[2] ?? ''}${query}`;
    next();
  };
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}
