import { describe, expect, it } from 'vitest';
import { SECRET_PLACEHOLDER, withoutSecrets } from '../delivery/secret-free-result';
import { pluginSecretValues } from './plugin-secret-values';
import { PLUGIN_TYPES } from '../registry';

// What each plugin type's declaration says it sends in secret (plugin-secret-values.ts), and
// the scrub every recorded attempt goes through (secret-free-result.ts).

describe('pluginSecretValues', () => {
  it("names a webhook's header values and URL, a token, a chat URL whole and its path", () => {
    const webhook = {
      url: 'https://hooks.example/in',
      headers: [
        { name: 'Authorization', value: 'Bearer abcdefgh1234' },
        { name: 'X-Key', value: 'k-0123456789' },
      ],
    };
    // A reader sees a webhook URL's origin only: its path may be a capability too.
    expect(pluginSecretValues(PLUGIN_TYPES.webhook, webhook)).toEqual([
      'Bearer abcdefgh1234',
      'k-0123456789',
      'https://hooks.example/in',
      '/in',
    ]);
    expect(
      pluginSecretValues(PLUGIN_TYPES.airtable, { token: 'pat123', base: 'appX', table: 't' }),
    ).toEqual(['pat123']);
    const url = 'https://hooks.slack.com/services/T0/B0/secretpart';
    expect(pluginSecretValues(PLUGIN_TYPES.slack, { url })).toEqual([
      url,
      '/services/T0/B0/secretpart',
    ]);
    expect(pluginSecretValues(PLUGIN_TYPES.email, { recipients: ['a@example.com'] })).toEqual([]);
  });
});

describe('withoutSecrets on a stored answer', () => {
  const answer = (responseBody: string) => ({ error: null, responseBody });

  it("replaces a secret's start left at the end of an answer cut at 4096 bytes", () => {
    const secret = 'sk_live_0123456789abcdef';
    const cut = `${'x'.repeat(20)}${secret.slice(0, 12)}`;
    expect(withoutSecrets(answer(cut), [secret]).responseBody).toBe(
      `${'x'.repeat(20)}${SECRET_PLACEHOLDER}`,
    );
    // Fewer than 8 characters of it are ordinary text.
    expect(withoutSecrets(answer('abc sk_live'), [secret]).responseBody).toBe('abc sk_live');
  });
});
