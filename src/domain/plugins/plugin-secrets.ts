import type { PluginConfig, PluginTypeDeclaration } from './plugin-type';
import { SigningSecretCipher } from './signing-secret';

/*
 * A plugin's tokens and keys (its declaration's `sealed` fields) are stored sealed with a key
 * of their own, derived from APP_SECRET: a copy of the database alone cannot post into anyone's
 * spreadsheet or chat. They are opened only by the delivery attempt, and never shown again.
 */

export const PLUGIN_SECRETS_PURPOSE = 'plugin config secrets v1';

/** What pages and API answers show in place of a sealed value. */
export const SECRET_MASK = '••••••••';

export function pluginSecretsCipher(appSecret: string): SigningSecretCipher {
  return new SigningSecretCipher(appSecret, PLUGIN_SECRETS_PURPOSE);
}

/** The config to store: each sealed field's string sealed. */
export function sealConfig(
  type: PluginTypeDeclaration,
  config: PluginConfig,
  cipher: SigningSecretCipher,
): PluginConfig {
  const stored = { ...config };
  for (const field of type.sealed)
    if (typeof stored[field] === 'string') stored[field] = cipher.seal(stored[field]);
  return stored;
}

/** The config a delivery attempt uses: each sealed field opened. */
export function openConfig(
  type: PluginTypeDeclaration,
  stored: PluginConfig,
  cipher: SigningSecretCipher,
): PluginConfig {
  const config = { ...stored };
  for (const field of type.sealed)
    if (typeof config[field] === 'string') config[field] = cipher.open(config[field]);
  return config;
}
