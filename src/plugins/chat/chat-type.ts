import type { PluginTypeDeclaration } from '../plugin-type';
import { checkUrlConfig, hostOf } from '../webhook/declaration';

/** Slack and Discord: an incoming-webhook URL, itself the secret, checked like a webhook's. */
export function chatType(
  key: 'slack' | 'discord',
  label: string,
  placeholder: string,
): PluginTypeDeclaration {
  return {
    key,
    label,
    noun: `a ${label} channel`,
    createdThrough: 'dashboard',
    signs: false,
    fields: [
      {
        name: 'url',
        label: `${key === 'slack' ? 'Slack incoming-webhook' : 'Discord webhook'} URL (https only)`,
        input: 'url',
        required: true,
        placeholder,
      },
    ],
    check: checkUrlConfig,
    sealed: [],
    redacted: { keep: [], origin: ['url'] },
    defaultName: (config) => `${label} channel at ${hostOf(config.url)}`,
    summary: (visible) => String(visible.url ?? '(hidden)'),
  };
}
