import { isPluginTypeKey, type PluginTypeKey } from '../../../workflows/delivery-kinds';
import type { ConfigCheck, PluginTypeDeclaration } from './plugin-type';
import type { UrlCheckOptions } from './plugin-configs';
import { airtableType } from './types/airtable';
import { discordType, slackType } from './types/chat';
import { emailType } from './types/email';
import { notionType } from './types/notion';
import { teamsType } from './types/teams';
import { telegramType } from './types/telegram';
import { googleSheetsType } from './types/google-sheets';
import { webhookType } from './types/webhook';

/**
 * Every plugin type, in the order the dashboard offers them. Adding a type: its declaration in
 * types/, one line here, its activity and policy (CONTRIBUTING.md, "Adding a plugin type").
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
