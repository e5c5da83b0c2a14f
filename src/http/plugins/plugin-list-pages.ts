import type { Request } from 'express';
import type { Form } from '../../domain/entities';
import { listFormPlugins } from '../../plugins/manage/plugins';
import { pluginRecipientLookup } from '../../plugins/manage/plugin-recipients';
import { SIGNATURE_HEADERS } from '../../plugins/webhook/signatures';
import { formSectionLinks } from '../forms/form-sections';
import { formatTime } from '../kit/chrome/format-time';
import { formRef, pluginRow, type PluginViewer } from '../forms/page-views';
import { PLUGIN_TYPE_LIST } from '../../plugins/registry';
import type { PluginAddForm, Templates, TypedPluginDraft } from '../kit/chrome/template-data';

/*
 * The form's plugins page (`plugins.eta`): its data, built here for the page and for the add
 * post that shows it again with its errors (plugins-pages.ts).
 */

/** A form has few plugins; one page shows them all. */
const MAX_PLUGINS_SHOWN = 100;

/** What the pages that answer with the plugins page declare. */
export const PLUGINS_PAGE = {
  access: 'session',
  template: 'plugins',
  title: (data: { form: { name: string } }) => `Plugins · ${data.form.name}`,
} as const;

export const EMPTY_TYPED_DRAFT: TypedPluginDraft = { type: '', name: '', values: {}, errors: {} };

/** The add form of every type, in the registry's order (its declaration's fields). */
export const ADD_FORMS: PluginAddForm[] = PLUGIN_TYPE_LIST.map((type) => ({
  type: type.key,
  label: type.label,
  noun: type.noun,
  fields: [...type.fields],
}));

/** What a refused add post shows again: the form as submitted, with its errors by field. */
export type PluginsPageDrafts = { typed?: TypedPluginDraft };

export async function pluginsPageData(
  req: Request,
  viewer: PluginViewer,
  form: Form,
  drafts: PluginsPageDrafts = {},
): Promise<Templates['plugins']> {
  const { rows } = await listFormPlugins(req.em, form.id, { page: 1, perPage: MAX_PLUGINS_SHOWN });
  const plugins = rows.map((plugin) => pluginRow(plugin, viewer));
  const recipientsOf = await pluginRecipientLookup(req.em, form.accountId, plugins);
  return {
    form: formRef(form),
    sections: formSectionLinks(form.id, 'plugins'),
    plugins,
    recipientsOf,
    typed: drafts.typed ?? EMPTY_TYPED_DRAFT,
    addForms: ADD_FORMS,
    headers: SIGNATURE_HEADERS,
    formatTime,
  };
}

/** A form field of the urlencoded body, as a string ('' when absent). */
export const bodyField = (req: Request, name: string): string => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};
