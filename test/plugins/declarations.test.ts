import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseAllowList } from '../../src/outbound/address-policy';
import {
  PLUGIN_TYPES,
  PLUGIN_TYPE_LIST as PLUGIN_TYPES_IN_ORDER,
} from '../../src/plugins/registry';
import { UnreadableConfigError, type PluginConfig } from '../../src/plugins/plugin-type';
import type { PluginTypeKey } from '../../workflows/delivery-kinds';

const urls = { allowList: parseAllowList([]) };
const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** A config each type's add form could send, as given (a new type adds one, or the test is a todo). */
const GIVEN: Partial<Record<PluginTypeKey, PluginConfig>> = {
  webhook: {
    url: 'https://93.184.216.34/hook',
    headers: [{ name: 'Authorization', value: 'Bearer abc' }],
  },
  email: { recipients: ['Team@Example.org'], subject: '' },
  slack: { url: 'https://93.184.216.34/services/T/B/x' },
  discord: { url: 'https://93.184.216.34/api/webhooks/1/x' },
  teams: { url: 'https://93.184.216.34/workflows/x?sig=abc' },
  telegram: { token: `123456789:${'A'.repeat(35)}`, chat_id: '-100200' },
  google_sheets: {
    service_account_key: JSON.stringify({
      type: 'service_account',
      client_email: 'bot@project.iam.gserviceaccount.com',
      private_key: pem,
    }),
    spreadsheet_id: '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms',
  },
  airtable: {
    token: `patAAAAAAAAAAAAAA.${'0'.repeat(64)}`,
    base: 'appAAAAAAAAAAAAAA',
    table: 'Submissions',
  },
  notion: { token: `ntn_${'a'.repeat(40)}`, database: '0123456789abcdef0123456789abcdef' },
};

describe('plugin type declarations', () => {
  for (const { key } of PLUGIN_TYPES_IN_ORDER) {
    const given = GIVEN[key];
    if (!given) {
      it.todo(`${key}: add a config to GIVEN`);
      continue;
    }
    it(`${key}: the stored config its check returns is read back by every hook`, async () => {
      const type = PLUGIN_TYPES[key];
      const checked = await type.check(given, urls);
      expect(checked).toMatchObject({ ok: true });
      if (!checked.ok) return;
      // Each hook reads the config through the type's schema: a shape it does not read throws.
      expect(type.defaultName(checked.config)).not.toMatch(/undefined|\[object/);
      expect(type.createdSummary(checked.config)).not.toMatch(/undefined/);
      const recipients = type.recipients(checked.config);
      expect(recipients).toEqual(key === 'email' ? ['team@example.org'] : null);
    });
  }

  it('refuses a stored config that does not fit its type, naming the field', () => {
    expect(() => PLUGIN_TYPES.telegram.defaultName({ token: 'x' })).toThrow(UnreadableConfigError);
    expect(() => PLUGIN_TYPES.telegram.defaultName({ token: 'x' })).toThrow(/chat_id/);
  });

  it('lets only a type with headers change them, keeping a value given without one', () => {
    expect(PLUGIN_TYPES.slack.changeHeaders).toBeNull();
    const change = PLUGIN_TYPES.webhook.changeHeaders!;
    const stored = { url: 'https://h.example/', headers: [{ name: 'X-Key', value: 'k1' }] };
    expect(change(stored, [{ name: 'X-Key' }])).toEqual({ ok: true, config: null });
    expect(change(stored, [{ name: 'X-Key' }, { name: 'X-Two', value: '2' }])).toEqual({
      ok: true,
      config: {
        url: 'https://h.example/',
        headers: [
          { name: 'X-Key', value: 'k1' },
          { name: 'X-Two', value: '2' },
        ],
      },
    });
    expect(change(stored, [])).toEqual({ ok: true, config: { url: 'https://h.example/' } });
    expect(change(stored, [{ name: 'X-New' }])).toMatchObject({ ok: false });
  });
});
