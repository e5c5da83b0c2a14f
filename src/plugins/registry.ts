import { isPluginTypeKey, type PluginTypeKey } from '../../workflows/delivery-kinds';
import type { ConfigCheck, PluginTypeDeclaration } from './plugin-type';
import type { UrlCheckOptions } from './manage/plugin-configs';
import { airtableType } from './airtable/declaration';
import { discordType } from './discord/declaration';
import { slackType } from './slack/declaration';
import { emailType } from './email/declaration';
import { notionType } from './notion/declaration';
import { teamsType } from './teams/declaration';
import { telegramType } from './telegram/declaration';
import { googleSheetsType } from './google-sheets/declaration';
import { webhookType } from './webhook/declaration';

/**
 * Every plugin type, in the order the dashboard offers them. Adding a type: its folder
 * (<type>/declaration.ts, <type>/delivery.ts), one line here and its kind in
 * workflows/delivery-kinds.ts (CONTRIBUTING.md, "Adding a plugin type").
 */
export const PLUGIN_TYPES: Record<PluginTypeKey, PluginTypeDeclaration> = {
  webhook: webhookType,
  email: emailType,
  slack: slackType,
  discord: discordType,
  teams: teamsType,
  telegram: telegramType,
  google_sheets: googleSheetsType,
  airtable: airtableType,
  notion: notionType,
};

export const PLUGIN_TYPE_LIST: readonly PluginTypeDeclaration[] = Object.values(PLUGIN_TYPES);

/** The declaration of a stored type; null for a type this version does not know. */
export function pluginTypeOf(key: string): PluginTypeDeclaration | null {
  return isPluginTypeKey(key) ? PLUGIN_TYPES[key] : null;
}

/** Checks a config for its type (the declaration's schema and network rules). */
export function checkPluginConfig(
  key: PluginTypeKey,
  raw: unknown,
  urls: UrlCheckOptions,
): Promise<ConfigCheck> {
  return PLUGIN_TYPES[key].check(raw, urls);
}
