/*
 * Where a form's plugins live in the dashboard: one set of pages for every plugin type
 * (docs/dashboard.md). The pages, their templates' links and the old `/webhooks` addresses'
 * redirects (plugins/legacy-plugin-paths-pages.ts) all build their addresses here.
 */

/** The form's plugins page: every plugin, and the add form of every type. */
export const pluginsPath = (formId: string) => `/app/forms/${formId}/plugins`;

/** One plugin's pages and actions sit below it: `/enable`, `/recover`, `/deliveries`, … */
export const pluginPath = (formId: string, pluginId: string) =>
  `${pluginsPath(formId)}/${pluginId}`;

/** A plugin's delivery log. */
export const pluginDeliveriesPath = (formId: string, pluginId: string) =>
  `${pluginPath(formId, pluginId)}/deliveries`;
