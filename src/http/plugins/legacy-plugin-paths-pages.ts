import type { Request, Response, NextFunction } from 'express';
import { isEndpointToken, isNumericId } from '../../domain/forms/endpoint-token';
import { definePage, type PageParams } from '../kit/routing/define-page';
import { pluginPath, pluginsPath } from './plugin-paths';

/*
 * The plugin pages' old addresses, `/app/forms/{id}/webhooks…`, from before every plugin type
 * shared one set of pages under `/plugins` (plugins-pages.ts, plugin-actions-pages.ts, recoveries-pages.ts,
 * src/http/submissions/deliveries-pages.ts): bookmarks, old e-mails and pages still open in a tab lead there, for good.
 *
 * A GET answers 301 (moved permanently). A POST answers 308, not 301 or 303: browsers turn a
 * 301 or 303 after a POST into a GET without the body, which would drop the form's fields and
 * its `_csrf` token and land on a page instead of doing the action; a 308 makes the browser
 * post the same body, token included, to the new address, where the action runs (and is
 * recorded) once. requireSession has already checked the session and the token here.
 *
 * Only these exact paths are answered, and the new address is built from the ids alone, once
 * they have the shape of ids (a form's id or endpoint token, numeric plugin and run ids),
 * never from the request's path: no address outside the plugin pages can come out of it. The
 * query string is kept as it was (`?page=2` of a delivery log).
 */

type Ids = { formId: string; pluginId?: string; id?: string };

const validIds = ({ formId, pluginId, id }: Ids) =>
  (isNumericId(formId) || isEndpointToken(formId)) &&
  (pluginId === undefined || isNumericId(pluginId)) &&
  (id === undefined || isNumericId(id));

/** The request's query string, `?` included, or ''. */
function queryOf(req: Request): string {
  const at = req.originalUrl.indexOf('?');
  return at < 0 ? '' : req.originalUrl.slice(at);
}

function redirect(
  status: 301 | 308,
  target: string,
  input: { req: Request; res: Response; next: NextFunction; params: object },
) {
  if (!validIds(input.params as Ids)) return input.next();
  const query = queryOf(input.req);
  // The old webhook form posted no `type`: its new address names it (plugins-pages.ts reads it).
  const joined = target.includes('?') && query ? `${target}&${query.slice(1)}` : target + query;
  input.res.redirect(status, joined);
}

const OLD = '/app/forms/:formId/webhooks';

const movedGet = <const P extends string>(path: P, target: (ids: PageParams<P>) => string) =>
  definePage({ need: 'member', method: 'get', path, access: 'session' }).handle((input) =>
    redirect(301, target(input.params), input),
  );

const movedPost = <const P extends string>(path: P, target: (ids: PageParams<P>) => string) =>
  definePage({
    need: 'member',
    method: 'post',
    path,
    access: 'session',
    audit: { exempt: 'a redirect: the page it leads to makes the change and records it' },
  }).handle((input) => redirect(308, target(input.params), input));

const pluginAt = (ids: { formId: string; pluginId: string }) =>
  pluginPath(ids.formId, ids.pluginId);

const POSTED_ACTIONS = ['enable', 'disable', 'delete', 'rotate', 'recover'] as const;

export const legacyPluginPages = [
  movedGet(OLD, (ids) => pluginsPath(ids.formId)),
  movedPost(OLD, (ids) => `${pluginsPath(ids.formId)}?type=webhook`),
  ...POSTED_ACTIONS.map((action) =>
    movedPost(`${OLD}/:pluginId/${action}`, (ids) => `${pluginAt(ids)}/${action}`),
  ),
  movedGet(`${OLD}/:pluginId/recover`, (ids) => `${pluginAt(ids)}/recover`),
  movedGet(`${OLD}/:pluginId/recoveries/:id`, (ids) => `${pluginAt(ids)}/recoveries/${ids.id}`),
  movedGet(`${OLD}/:pluginId/deliveries`, (ids) => `${pluginAt(ids)}/deliveries`),
];
