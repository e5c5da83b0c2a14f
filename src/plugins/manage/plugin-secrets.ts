import type { PluginConfig, PluginTypeDeclaration } from '../plugin-type';
import { SigningSecretCipher } from '../../domain/secrets/signing-secret';

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

/**
 * The config with every secret the declaration names (`sealed`, `sealedInLists`) replaced by
 * `change(value)`; nothing else is touched, and the given config is not modified.
 */
export function mapSecrets(
  type: PluginTypeDeclaration,
  config: PluginConfig,
  change: (value: string) => string,
): PluginConfig {
  const mapped = { ...config };
  for (const field of type.sealed)
    if (typeof mapped[field] === 'string') mapped[field] = change(mapped[field]);
  for (const { list, key } of type.sealedInLists ?? []) {
    const items = mapped[list];
    if (!Array.isArray(items)) continue;
    mapped[list] = items.map((item: unknown) => {
      if (typeof item !== 'object' || item === null) return item;
      const value = (item as Record<string, unknown>)[key];
      return typeof value === 'string' ? { ...item, [key]: change(value) } : item;
    });
  }
  return mapped;
}

/** The config to store: each secret sealed. */
export function sealConfig(
  type: PluginTypeDeclaration,
  config: PluginConfig,
  cipher: SigningSecretCipher,
): PluginConfig {
  return mapSecrets(type, config, (value) => cipher.seal(value));
}

/** The config a delivery attempt uses: each secret opened. */
export function openConfig(
  type: PluginTypeDeclaration,
  stored: PluginConfig,
  cipher: SigningSecretCipher,
): PluginConfig {
  return mapSecrets(type, stored, (value) => cipher.open(value));
}
