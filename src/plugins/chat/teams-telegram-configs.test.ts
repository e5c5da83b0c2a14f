import { describe, expect, it } from 'vitest';
import { parseAllowList } from '../../outbound/address-policy';
import { visiblePluginConfig } from '../manage/plugin-config-visibility';
import { openConfig, pluginSecretsCipher, sealConfig, SECRET_MASK } from '../manage/plugin-secrets';
import { teamsType } from '../teams/declaration';
import { telegramType } from '../telegram/declaration';
import type { HostLookup } from '../../outbound/destination-url';

const WORKFLOW_HOST = 'prod-12.westeurope.logic.azure.com';
const WORKFLOW_URL = `https://${WORKFLOW_HOST}/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=S1gNaTuReS1gNaTuRe`;
const TOKEN = '123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr';

const lookup: HostLookup = async (host) => {
  if (host === WORKFLOW_HOST || host === 'example.powerplatform.com') return ['20.50.2.3'];
  if (host === 'intranet.example.com') return ['10.0.0.7'];
  throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};
const urls = {
  allowList: parseAllowList([]),
  lookup,
  ownUrls: ['https://forms.example.org'],
};
const cipher = pluginSecretsCipher('a test app secret of some length');

describe('the Teams config', () => {
  it('takes a workflow URL on any public host and keeps its host beside it', async () => {
    expect(await teamsType.check({ url: ` ${WORKFLOW_URL} ` }, urls)).toEqual({
      ok: true,
      config: { url: WORKFLOW_URL, host: WORKFLOW_HOST },
    });
    const other = await teamsType.check({ url: 'https://example.powerplatform.com/x?sig=1' }, urls);
    expect(other.ok).toBe(true);
  });

  it('refuses what a webhook URL may not be: http, private addresses, a loop, nothing', async () => {
    const refused = async (url: unknown) => {
      const checked = await teamsType.check({ url }, urls);
      expect(checked.ok).toBe(false);
      return checked.ok ? [] : checked.errors;
    };
    expect(await refused(WORKFLOW_URL.replace('https:', 'http:'))).toEqual([
      expect.stringMatching(/^url: must use https:\/\//),
    ]);
    expect(await refused('https://intranet.example.com/hook')).toEqual([
      expect.stringMatching(/^url: host intranet\.example\.com does not resolve to a public/),
    ]);
    expect(await refused('https://127.0.0.1/hook')).toEqual([
      expect.stringMatching(/^url: address 127\.0\.0\.1 is not public/),
    ]);
    expect((await refused('https://forms.example.org/f/x'))[0]).toMatch(/^url: /);
    expect(await refused('')).toEqual(['url: is required (an https:// URL)']);
  });

  it('seals the URL: managers see the mask and the host, viewers the host, the page the host', () => {
    const stored = sealConfig(teamsType, { url: WORKFLOW_URL, host: WORKFLOW_HOST }, cipher);
    expect(JSON.stringify(stored)).not.toContain('S1gNaTuRe');
    expect(openConfig(teamsType, stored, cipher).url).toBe(WORKFLOW_URL);
    const full = visiblePluginConfig('teams', stored, 'full');
    expect(full).toEqual({ url: SECRET_MASK, host: WORKFLOW_HOST });
    const redacted = visiblePluginConfig('teams', stored, 'redacted');
    expect(redacted).toEqual({ host: WORKFLOW_HOST });
    expect(teamsType.summary(full)).toBe(`https://${WORKFLOW_HOST}/…`);
    expect(teamsType.summary(redacted)).toBe(`https://${WORKFLOW_HOST}/…`);
    expect(teamsType.defaultName({ url: WORKFLOW_URL, host: WORKFLOW_HOST })).toBe(
      `Teams workflow at ${WORKFLOW_HOST}`,
    );
  });
});

describe('the Telegram config', () => {
  const check = (raw: unknown) => telegramType.check(raw, urls);

  it('takes a bot token and a numeric, negative or @channel chat id', async () => {
    for (const chatId of ['123456', '-1001234567890', '@formward_news'])
      expect(await check({ token: ` ${TOKEN} `, chat_id: ` ${chatId} ` })).toEqual({
        ok: true,
        config: { token: TOKEN, chat_id: chatId },
      });
  });

  it('refuses a malformed token or chat id with the field and a readable reason', async () => {
    const errors = async (raw: unknown) => {
      const checked = await check(raw);
      expect(checked.ok).toBe(false);
      return checked.ok ? [] : checked.errors;
    };
    for (const token of [
      '123456789',
      '123:short',
      `abc:${'A'.repeat(35)}`,
      `${TOKEN}x`,
      `${TOKEN}/x`,
    ])
      expect(await errors({ token, chat_id: '1' })).toEqual([
        expect.stringMatching(/^token: must be a bot token as BotFather gives it/),
      ]);
    for (const chatId of ['', 'general', '@ab', '12.5', '-', '@chan nel'])
      expect(await errors({ token: TOKEN, chat_id: chatId })).toEqual([
        expect.stringMatching(/^chat_id: must be a chat id/),
      ]);
    expect(await errors({})).toEqual([
      expect.stringMatching(/^token: is required/),
      expect.stringMatching(/^chat_id: is required/),
    ]);
  });

  it('seals the token; everyone sees the chat id, no one the token', () => {
    const stored = sealConfig(telegramType, { token: TOKEN, chat_id: '-100123' }, cipher);
    expect(JSON.stringify(stored)).not.toContain(TOKEN.split(':')[1]);
    expect(openConfig(telegramType, stored, cipher).token).toBe(TOKEN);
    expect(visiblePluginConfig('telegram', stored, 'full')).toEqual({
      token: SECRET_MASK,
      chat_id: '-100123',
    });
    const redacted = visiblePluginConfig('telegram', stored, 'redacted');
    expect(redacted).toEqual({ chat_id: '-100123' });
    expect(telegramType.summary(redacted)).toBe('Telegram chat -100123');
  });
});
