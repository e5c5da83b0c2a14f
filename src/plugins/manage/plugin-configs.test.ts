import { describe, expect, it } from 'vitest';
import { parseAllowList } from '../../outbound/address-policy';
import { DEFAULT_EMAIL_SUBJECT, renderSubject } from '../email/email-config';
import { checkPluginConfig } from '../registry';

const urls = {
  allowList: parseAllowList([]),
  lookup: async (host: string) => (host === 'hooks.slack.com' ? ['34.1.2.3'] : ['10.0.0.5']),
  ownUrls: ['https://forms.example.com'],
};

describe('plugin configs', () => {
  it('takes 1-10 e-mail addresses, lower-cased and without duplicates, and a default subject', async () => {
    const checked = await checkPluginConfig(
      'email',
      { recipients: ['A@Example.com', 'a@example.com '] },
      urls,
    );
    expect(checked).toEqual({
      ok: true,
      config: { recipients: ['a@example.com'], subject: DEFAULT_EMAIL_SUBJECT },
    });
  });

  it('refuses no addresses, more than ten, and non-addresses, naming the field', async () => {
    const none = await checkPluginConfig('email', { recipients: [] }, urls);
    expect(none).toEqual({ ok: false, errors: ['recipients: at least one address is required'] });
    const many = Array.from({ length: 11 }, (_, i) => `p${i}@example.com`);
    expect(await checkPluginConfig('email', { recipients: many }, urls)).toMatchObject({
      ok: false,
      errors: ['recipients: at most 10 addresses'],
    });
    expect(await checkPluginConfig('email', { recipients: ['nope'] }, urls)).toMatchObject({
      ok: false,
      errors: ['recipients: must be e-mail addresses'],
    });
  });

  it('strips line breaks from the subject template (no header injection)', async () => {
    const checked = await checkPluginConfig(
      'email',
      { recipients: ['a@example.com'], subject: 'Hi\r\nBcc: x@evil.example {form}' },
      urls,
    );
    expect(checked).toMatchObject({
      ok: true,
      config: { subject: 'Hi Bcc: x@evil.example {form}' },
    });
  });

  it('fills the subject placeholders and strips line breaks from submitted values', () => {
    const subject = renderSubject('[{form}] {field:name} wrote #{id} {field:missing}', {
      formName: 'Contact',
      submissionId: '7',
      payload: { name: 'Ada\r\nBcc: x@evil.example' },
    });
    expect(subject).toBe('[Contact] Ada Bcc: x@evil.example wrote #7');
  });

  it('checks Slack and Discord URLs like webhook URLs: https, public, no loop', async () => {
    expect(
      await checkPluginConfig('slack', { url: 'https://hooks.slack.com/services/T/B/x' }, urls),
    ).toEqual({
      ok: true,
      config: { url: 'https://hooks.slack.com/services/T/B/x' },
    });
    const http = await checkPluginConfig('discord', { url: 'http://hooks.slack.com/x' }, urls);
    expect(http).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^url: must use https/)],
    });
    const internal = await checkPluginConfig(
      'slack',
      { url: 'https://hooks.internal.example.com/x' },
      urls,
    );
    expect(internal).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/does not resolve to a public address/)],
    });
    const loop = await checkPluginConfig(
      'discord',
      { url: 'https://forms.example.com/f/abc' },
      urls,
    );
    expect(loop.ok).toBe(false);
    expect(await checkPluginConfig('slack', {}, urls)).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^url:/)],
    });
  });
});
