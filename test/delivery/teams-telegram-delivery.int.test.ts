import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { sealConfig } from '../../src/plugins/manage/plugin-secrets';
import { createTypedPlugin } from '../../src/plugins/manage/plugins';
import { PLUGIN_TYPES } from '../../src/plugins/registry';
import { request } from '../support/api-client';
import { attemptsOf, FAST_DELIVERY_ENV, waitForAttempts } from '../support/delivery-attempts';
import { eventually } from '../support/eventually';
import { startFakeTeams, teamsAnswers, type FakeTeams } from '../support/fake-teams';
import { startFakeTelegram, telegramAnswers, type FakeTelegram } from '../support/fake-telegram';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';
import { openAppSession } from '../dashboard/dashboard-support';

// Microsoft Teams and Telegram plugins end to end (docs/plugins.md): real ingest, a real
// worker, and fakes of a Teams workflow and of Telegram's Bot API that check each request as
// the services do (test/support/fake-teams.ts, fake-telegram.ts), over HTTPS on 127.0.0.1.

const CHAT = '-1001234567890';
let teams: FakeTeams;
let telegram: FakeTelegram;

beforeAll(async () => {
  teams = await startFakeTeams(inject('stack').certificates);
  telegram = await startFakeTelegram(inject('stack').certificates, [CHAT, '@formward_test']);
});

const t = useTestStack(() => ({
  worker: true,
  env: { ...FAST_DELIVERY_ENV, TELEGRAM_API_URL: telegram.url },
}));

afterAll(async () => {
  await teams?.close();
  await telegram?.close();
});

/** A form with one plugin, its secrets sealed as the dashboard stores them. */
async function formWith(type: 'teams' | 'telegram', config: Record<string, unknown>) {
  const form = await t.api.createForm({ name: 'Leads <b>&</b> co' });
  const plugin = await createTypedPlugin(
    t.stack.ctx.orm.em.fork(),
    {
      formId: form.id,
      type,
      config: sealConfig(PLUGIN_TYPES[type], config, t.stack.ctx.pluginSecrets) as never,
    },
    0,
  );
  return { form, plugin, path: `/api/forms/${form.id}/plugins/${plugin.id}` };
}

const teamsPlugin = (url = teams.url) => formWith('teams', { url, host: new URL(url).host });
const telegramPlugin = (chatId = CHAT, token = telegram.token) =>
  formWith('telegram', { token, chat_id: chatId });

const HOSTILE = {
  name: '<b>Mallory</b> &amp;',
  message: '**bold** [click](https://evil.example) # title _it_ <i>x</i> &lt;',
  long_essay_last: 'x'.repeat(10_000), // jsonb orders keys by length: this one last
};

/** Everything a member can read of a plugin: its view, its delivery log, its pages. */
async function everythingShown(form: { id: string }, path: string, pluginId: string) {
  const app = await openAppSession(t.stack.url, t.email, t.password);
  const page = (p: string) => request('GET', `${t.stack.url}${p}`, { cookie: app.cookie });
  const shown = [
    await t.api.get(path),
    await t.api.get(`${path}/deliveries`),
    await page(`/app/forms/${form.id}/plugins`),
    await page(`/app/forms/${form.id}/plugins/${pluginId}/deliveries`),
  ];
  for (const res of shown) expect(res.status).toBe(200);
  return shown.map((res) => res.text).join('\n');
}

/** The plugin's health, once a settled delivery has been counted. */
const healthOf = (path: string, failures: number) =>
  eventually(async () => {
    const { plugin } = (await t.api.get(path)).body as {
      plugin: { consecutive_failures: number; enabled: boolean };
    };
    return plugin.consecutive_failures === failures && plugin;
  });

describe('Microsoft Teams plugin', () => {
  it('posts one Adaptive Card per submission, values as plain text, the URL never shown', async () => {
    const { form, plugin, path } = await teamsPlugin();
    const before = teams.accepted.length;
    const id = await submitJson(form, HOSTILE);
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([
      expect.objectContaining({ plugin_id: plugin.id, status: 'succeeded', http_status: 202 }),
    ]);
    expect(teams.accepted).toHaveLength(before + 1);
    const { texts, request: sent } = teams.accepted.at(-1)!;
    expect(sent.headers['content-type']).toBe('application/json');
    expect(texts[0]).toBe('New submission to Leads <b>&</b> co');
    expect(texts).toContain(HOSTILE.message);
    expect(texts).toContain(HOSTILE.name);
    expect(texts.at(-1)).toContain(`Submission ${id}`);

    const shown = await everythingShown(form, path, plugin.id);
    expect(shown).not.toContain(teams.sig);
    expect(shown).toContain(teams.host);
  });

  it('a 429 with Retry-After is retried after it, under the same delivery id', async () => {
    const { form } = await teamsPlugin();
    teams.answerNext(teamsAnswers.throttled(2));
    const id = await submitJson(form, { message: 'hello' });
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((a) => [a.attempt, a.status, a.http_status])).toEqual([
      [1, 'pending_retry', 429],
      [2, 'succeeded', 202],
    ]);
    const [first, second] = teams.received.slice(-2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_900);
    expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(1);
  });

  it('a refused signature fails at once, is counted by endpoint health, and hides the URL', async () => {
    const wrongSig = teams.url.replace(teams.sig, 'NotTheSignature1234');
    const { form, plugin, path } = await teamsPlugin(wrongSig);
    const id = await submitJson(form, { message: 'hello' });
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([
      expect.objectContaining({ status: 'failed', http_status: 401, attempt: 1 }),
    ]);
    expect(attempts[0]!.error).toMatch(/^Teams: the workflow refused its signature \(401\)/);
    // The fake quoted the request's target: it is recorded without the URL or its sig.
    expect(attempts[0]!.response_body).toContain('[secret]');
    expect(JSON.stringify(attempts)).not.toContain('NotTheSignature1234');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await attemptsOf(t.stack, id)).toHaveLength(1);
    expect(await healthOf(path, 1)).toMatchObject({ enabled: true });
    expect(await everythingShown(form, path, plugin.id)).not.toContain('NotTheSignature1234');
  });

  it('a deleted workflow (404) ends the delivery without retry', async () => {
    const { form } = await teamsPlugin();
    teams.answerNext(teamsAnswers.notFound());
    const id = await submitJson(form, { message: 'hello' });
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([expect.objectContaining({ status: 'failed', http_status: 404 })]);
    expect(attempts[0]!.error).toMatch(/no such workflow \(404\)/);
  });
});

describe('Telegram plugin', () => {
  it('sends one HTML message per submission, every value escaped, the token never shown', async () => {
    const { form, plugin, path } = await telegramPlugin();
    const before = telegram.sent.length;
    const id = await submitJson(form, HOSTILE);
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([
      expect.objectContaining({ plugin_id: plugin.id, status: 'succeeded', http_status: 200 }),
    ]);
    expect(telegram.sent).toHaveLength(before + 1);
    const message = telegram.sent.at(-1)!;
    expect(message.chatId).toBe(CHAT);
    expect(message.request.path).toBe(`/bot${telegram.token}/sendMessage`);
    // As a Telegram user reads it: the tags and entities typed, not formatting.
    expect(message.text).toContain('New submission to Leads <b>&</b> co');
    expect(message.text).toContain(`name\n${HOSTILE.name}`);
    expect(message.text).toContain(`message\n${HOSTILE.message}`);
    expect(message.html.length).toBeLessThanOrEqual(4096);
    expect(message.text).toMatch(/long_essay_last\nx+…/);
    expect(message.text).toContain(`Submission ${id}`);

    const [, secret] = telegram.token.split(':');
    expect(JSON.stringify(attempts)).not.toContain(secret);
    const shown = await everythingShown(form, path, plugin.id);
    expect(shown).not.toContain(secret);
    expect(shown).toContain(CHAT);
  });

  it('a flood limit is retried after the body’s retry_after, under the same delivery id', async () => {
    const { form } = await telegramPlugin('@formward_test');
    telegram.answerNext(telegramAnswers.flood(2));
    const id = await submitJson(form, { message: 'hello' });
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((a) => [a.attempt, a.status, a.http_status])).toEqual([
      [1, 'pending_retry', 429],
      [2, 'succeeded', 200],
    ]);
    expect(attempts[0]!.error).toBe('Telegram asked to wait (429): 2 s');
    const [first, second] = telegram.received.slice(-2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_900);
  });

  it('a server error is retried', async () => {
    const { form } = await telegramPlugin();
    telegram.answerNext(telegramAnswers.serverError());
    const id = await submitJson(form, { message: 'hello' });
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((a) => [a.status, a.http_status])).toEqual([
      ['pending_retry', 502],
      ['succeeded', 200],
    ]);
  });

  it('a refused token fails at once, is counted by endpoint health, and is never recorded', async () => {
    const revoked = `${telegram.token.split(':')[0]}:${'R'.repeat(35)}`;
    const { form, plugin, path } = await telegramPlugin(CHAT, revoked);
    const id = await submitJson(form, { message: 'hello' });
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([
      expect.objectContaining({ status: 'failed', http_status: 401, attempt: 1 }),
    ]);
    expect(attempts[0]!.error).toMatch(/^Telegram refused the bot token \(401: Unauthorized\)/);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await attemptsOf(t.stack, id)).toHaveLength(1);
    expect(await healthOf(path, 1)).toMatchObject({ enabled: true });
    expect(await everythingShown(form, path, plugin.id)).not.toContain('R'.repeat(35));
  });

  it('an unknown chat and a blocked bot end the delivery with a readable reason', async () => {
    const unknown = await telegramPlugin('-42');
    const lost = await submitJson(unknown.form, { message: 'hello' });
    const [notFound] = await waitForAttempts(t.stack, lost, 1);
    expect(notFound).toMatchObject({ status: 'failed', http_status: 400 });
    expect(notFound!.error).toBe(
      'Telegram refused (400): Bad Request: chat not found; check the chat id, and that the bot was added to the chat',
    );

    const kicked = await telegramPlugin();
    telegram.answerNext(telegramAnswers.blocked());
    const id = await submitJson(kicked.form, { message: 'hello' });
    const [blocked] = await waitForAttempts(t.stack, id, 1);
    expect(blocked).toMatchObject({ status: 'failed', http_status: 403 });
    expect(blocked!.error).toMatch(/bot was kicked from the supergroup chat; add the bot/);
    await healthOf(kicked.path, 1);
  });
});
