import { mapSecrets } from './plugin-secrets';
import type { PluginConfig, PluginTypeDeclaration } from '../plugin-type';

/**
 * The secret values a plugin sends, as its declaration names them in its opened config: each
 * sealed field and sealed list item (a token, a webhook header's value, a key), and each
 * capability URL (`redacted.origin`: a Slack or Discord URL) whole and the part a reader is
 * not shown, its path and query. What an attempt records or logs has each of them replaced
 * (src/plugins/delivery/secret-free-result.ts), whatever the receiver echoed.
 */
export function pluginSecretValues(type: PluginTypeDeclaration, config: PluginConfig): string[] {
  const values: string[] = [];
  mapSecrets(type, config, (value) => {
    values.push(value);
    return value;
  });
  for (const field of type.redacted.origin) {
    const text = config[field];
    if (typeof text !== 'string') continue;
    values.push(text);
    try {
      const url = new URL(text);
      values.push(`${url.pathname}${url.search}`);
    } catch {
      // Not a URL: the whole value is already there.
    }
  }
  return values;
}
