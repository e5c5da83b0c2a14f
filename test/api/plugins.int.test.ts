import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealPlainSigningSecrets } from '../../src/plugins/manage/plugins';
import {
  expectAnswer,
  expectError,
  expectValidationError,
  type ApiResponse,
  type CreatedWebhook,
} from '../support/api-client';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack } from '../support/fixture';

const PUBLIC_URL = 'https://93.184.216.34/hook';
const SECRET = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;

let dns: DnsServer;

beforeAll(async () => {
  // Host names in webhook URLs resolve through this DNS server only.
  dns = await startDnsServer({
    'hooks.public.test': { A: ['93.184.216.34'], AAAA: ['2606:2800:220:1::1'] },
    'intranet.public.test': { A: ['10.20.30.40'] },
    'mixed.public.test': { A: ['93.184.216.34', '192.168.0.7'] },
    'v6-loopback.public.test': { AAAA: ['::1'] },
    'rebind.public.test': { CNAME: 'metadata.public.test' },
    'metadata.public.test': { A: ['169.254.169.254'] },
  });
});
afterAll(async () => {
  await dns?.close();
});

const t = useTestStack(() => ({
  env: { DNS_SERVERS: dns.address },
  form: { name: 'With plugins' },
}));

const pluginsPath = (formRef: string = t.form.id) => `/api/forms/${formRef}/plugins`;
const listOf = (res: ApiResponse) =>
  expectAnswer(res, 'GET /api/forms/{form_id}/plugins', 200).plugins;
const pluginOf = (res: ApiResponse) =>
  expectAnswer(res, 'GET /api/forms/{form_id}/plugins/{id}', 200).plugin;

/** The signing_secret column as stored: sealed (docs/api-conventions.md, Webhooks). */
async function storedValue(pluginId: string): Promise<string> {
  const rows = await t.stack.sql<{ signing_secret: string }>(
    'select signing_secret from plugins where id = ?',
    [pluginId],
  );
  return rows[0]!.signing_secret;
}

/** The stored secret, opened with the stack's APP_SECRET. */
async function storedSecret(pluginId: string): Promise<string> {
  const stored = await storedValue(pluginId);
  expect(stored).toMatch(/^v1:/);
  return t.stack.ctx.signingSecrets.open(stored);
}

describe('creating a webhook', () => {
  let res: ApiResponse;
  let plugin: CreatedWebhook;

  beforeAll(async () => {
    res = await t.api.post(pluginsPath(), {
      plugin_type: 'webhook',
      config: { url: PUBLIC_URL },
      name: 'CRM hook',
    });
    plugin = expectAnswer(res, 'POST /api/forms/{form_id}/plugins', 201).plugin as CreatedWebhook;
  });

  it('answers 201 with the Plugin fields and the signing secret', () => {
    expect(plugin).toMatchObject({
      key: 'webhook',
      plugin_type: 'webhook',
      name: 'CRM hook',
      enabled: true,
      config: { url: PUBLIC_URL },
    });
    expect(plugin.id).toMatch(/^\d+$/);
    expect(plugin.signing_secret).toMatch(SECRET);
    expect(Date.parse(plugin.created_at)).not.toBeNaN();
    expect(res.headers.get('location')).toBe(`${t.stack.url}${pluginsPath()}/${plugin.id}`);
  });

  it('the returned secret is the one stored, sealed, never in plain text', async () => {
    expect(await storedValue(plugin.id)).not.toContain(plugin.signing_secret.slice(6));
    expect(await storedSecret(plugin.id)).toBe(plugin.signing_secret);
  });

  it('the start-up pass seals a secret stored in plain text by an older release, once', async () => {
    const older = await t.api.addWebhook(t.form.id, 'https://93.184.216.35/older');
    const plain = 'whsec_plaintextFromAnOlderRelease0000000';
    await t.stack.sql('update plugins set signing_secret = ? where id = ?', [plain, older.id]);
    const { orm, signingSecrets } = t.stack.ctx;
    expect(await sealPlainSigningSecrets(orm.em.fork(), signingSecrets)).toBe(1);
    expect(await storedSecret(older.id)).toBe(plain);
    expect(await sealPlainSigningSecrets(orm.em.fork(), signingSecrets)).toBe(0);
  });

  it('gives every webhook its own secret and a default name', async () => {
    const other = await t.api.addWebhook(t.form.id, 'https://93.184.216.35/other');
    expect(other.signing_secret).toMatch(SECRET);
    expect(other.signing_secret).not.toBe(plugin.signing_secret);
    expect(other.name).toBe('Webhook to 93.184.216.35');
  });

  it('the list shows it without its secret', async () => {
    const list = await t.api.get(pluginsPath());
    const listed = listOf(list).find((p) => p.id === plugin.id);
    expect(listed).toMatchObject({ plugin_type: 'webhook', config: { url: PUBLIC_URL } });
    expect(listed).not.toHaveProperty('signing_secret');
    expect(list.text).not.toContain(plugin.signing_secret);
    expect(list.text).not.toContain('whsec_');
  });

  it('GET by id shows it without its secret', async () => {
    const one = await t.api.get(`${pluginsPath()}/${plugin.id}`);
    expect(pluginOf(one).id).toBe(plugin.id);
    expect(pluginOf(one)).not.toHaveProperty('signing_secret');
    expect(one.text).not.toContain('whsec_');
  });

  it('a readonly key may list plugins (no secret either)', async () => {
    const list = await t.readonly.get(pluginsPath());
    expect(listOf(list).map((p) => p.id)).toContain(plugin.id);
    expect(list.text).not.toContain('whsec_');
  });

  it('a readonly key sees webhook URLs as scheme and host only', async () => {
    const secretUrl = 'https://93.184.216.34/hooks/T0K3N?sig=capability';
    const hook = await t.api.addWebhook(t.form.id, secretUrl);
    const one = await t.readonly.get(`${pluginsPath()}/${hook.id}`);
    expect(pluginOf(one).config).toEqual({ url: 'https://93.184.216.34' });
    const list = await t.readonly.get(pluginsPath());
    expect(list.text).not.toContain('T0K3N');
    const admin = await t.api.get(`${pluginsPath()}/${hook.id}`);
    expect(pluginOf(admin).config).toEqual({ url: secretUrl });
  });

  it('works with the endpoint token as form_id', async () => {
    const list = await t.api.get(pluginsPath(t.form.endpoint_token));
    expect(listOf(list).map((p) => p.id)).toContain(plugin.id);
  });
});

describe('refused plugin configurations', () => {
  const post = (body: unknown) => t.api.post(pluginsPath(), body);

  it.each(['slack', 'email', 'zapier'])('plugin_type %s → 422 unsupported_plugin', async (type) => {
    const res = await post({ plugin_type: type, config: { url: PUBLIC_URL } });
    expectError(res, 422, 'unsupported_plugin');
  });

  it('a name with a NUL character → 422 validation_failed', async () => {
    const res = await post({
      plugin_type: 'webhook',
      name: 'a\u0000b',
      config: { url: PUBLIC_URL },
    });
    expectValidationError(res, 'name');
  });

  it('a missing plugin_type → 422 validation_failed', async () => {
    expectValidationError(await post({ config: { url: PUBLIC_URL } }), 'plugin_type');
  });

  it.each([
    'http://93.184.216.34/hook',
    'https://127.0.0.1/',
    'https://10.0.0.1/',
    'https://172.16.5.4/',
    'https://192.168.1.10/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/',
    'https://0.0.0.0/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[fd00::1]/',
    'https://localhost/',
    'https://LOCALHOST:8443/x',
    'https://api.localhost/',
    'https://user:pass@93.184.216.34/',
    'ftp://93.184.216.34/',
    'not a url',
    '',
  ])('url %j → 422 invalid_config', async (url) => {
    const res = await post({ plugin_type: 'webhook', config: { url } });
    const { errors } = expectError(res, 422, 'invalid_config');
    expect(errors).toEqual([expect.stringMatching(/^config\.url: /)]);
  });

  it.each([
    ['no config', { plugin_type: 'webhook' }],
    ['config without url', { plugin_type: 'webhook', config: {} }],
    ['url not a string', { plugin_type: 'webhook', config: { url: 42 } }],
  ])('%s → 422 invalid_config', async (_label, body) => {
    expectError(await post(body), 422, 'invalid_config');
  });

  it('none of them was stored', async () => {
    const rows = await t.stack.sql<{ url: string }>(
      `select config->>'url' as url from plugins where form_id = ?`,
      [t.form.id],
    );
    for (const { url } of rows) expect(url).toMatch(/^https:\/\/93\.184\.216\.3[45]\//);
  });
});

describe('webhook host names', () => {
  const post = (url: string) =>
    t.api.post(pluginsPath(), { plugin_type: 'webhook', config: { url } });

  it('a name resolving only to public addresses → 201', async () => {
    const res = await post('https://hooks.public.test/formward');
    const { plugin } = expectAnswer(res, 'POST /api/forms/{form_id}/plugins', 201);
    expect(plugin.config).toMatchObject({ url: 'https://hooks.public.test/formward' });
  });

  it.each([
    ['a private address', 'https://intranet.public.test/'],
    ['one private address among public ones', 'https://mixed.public.test/'],
    ['IPv6 loopback', 'https://v6-loopback.public.test/'],
    ['cloud metadata via CNAME', 'https://rebind.public.test/'],
    ['nothing (unknown name)', 'https://nowhere.public.test/'],
  ])('a name resolving to %s → 422 invalid_config', async (_label, url) => {
    const { errors } = expectError(await post(url), 422, 'invalid_config');
    expect(errors).toEqual([expect.stringMatching(/^config\.url: /)]);
  });

  it.each(['https://intranet/', 'https://printer.local/', 'https://db.internal/'])(
    'an internal name %s → 422 invalid_config',
    async (url) => {
      expectError(await post(url), 422, 'invalid_config');
    },
  );
});

describe('WEBHOOK_ALLOW_PRIVATE', () => {
  const exempt = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE: '10.1.2.3,192.168.50.0/24' } });
  let formId: string;

  beforeAll(async () => {
    formId = (await exempt.api.createForm({ name: 'Intranet' })).id;
  });

  const post = (url: string) =>
    exempt.api.post(`/api/forms/${formId}/plugins`, {
      plugin_type: 'webhook',
      config: { url },
    });

  it.each(['https://10.1.2.3/hook', 'https://192.168.50.9/hook'])(
    'exempts %s → 201',
    async (url) => {
      expect((await post(url)).status).toBe(201);
    },
  );

  it.each(['https://10.1.2.4/hook', 'https://192.168.51.1/', 'https://127.0.0.1/'])(
    'still refuses %s → 422',
    async (url) => {
      expectError(await post(url), 422, 'invalid_config');
    },
  );

  it('HTTPS stays mandatory for exempted addresses', async () => {
    expectError(await post('http://10.1.2.3/hook'), 422, 'invalid_config');
  });
});

describe('rotating the secret', () => {
  it('returns a new secret that replaces the old one', async () => {
    const plugin = await t.api.addWebhook(t.form.id, PUBLIC_URL);
    const path = `${pluginsPath()}/${plugin.id}/rotate_secret`;
    const rotate = async () =>
      expectAnswer(
        await t.api.post(path),
        'POST /api/forms/{form_id}/plugins/{id}/rotate_secret',
        200,
      ).plugin;
    const first = await rotate();
    expect(first.id).toBe(plugin.id);
    expect(first.signing_secret).toMatch(SECRET);
    expect(first.signing_secret).not.toBe(plugin.signing_secret);
    expect(await storedSecret(plugin.id)).toBe(first.signing_secret);
    const second = await rotate();
    expect(second.signing_secret).not.toBe(first.signing_secret);
    expect(await storedSecret(plugin.id)).toBe(second.signing_secret);
  });

  it('an unknown plugin → 404', async () => {
    expectError(await t.api.post(`${pluginsPath()}/987654/rotate_secret`), 404, 'not_found');
  });
});

describe('deleting', () => {
  it('removes the plugin: 200 with a message, then gone from list and GET', async () => {
    const plugin = await t.api.addWebhook(t.form.id, PUBLIC_URL);
    const path = `${pluginsPath()}/${plugin.id}`;
    const res = await t.api.delete(path);
    const removed = expectAnswer(res, 'DELETE /api/forms/{form_id}/plugins/{id}', 200);
    expect(removed.ok).toBe(true);
    expect(removed.message).toBe('plugin removed');
    expect(listOf(await t.api.get(pluginsPath())).map((p) => p.id)).not.toContain(plugin.id);
    expectError(await t.api.get(path), 404, 'not_found');
    expectError(await t.api.delete(path), 404, 'not_found');
    expectError(await t.api.post(`${path}/rotate_secret`), 404, 'not_found');
  });

  it('a plugin id under another form of the same account → 404', async () => {
    const plugin = await t.api.addWebhook(t.form.id, PUBLIC_URL);
    const otherForm = await t.api.createForm({ name: 'Other form' });
    expectError(await t.api.delete(`${pluginsPath(otherForm.id)}/${plugin.id}`), 404, 'not_found');
    expect((await t.api.get(`${pluginsPath()}/${plugin.id}`)).status).toBe(200);
  });
});

describe('permissions', () => {
  let plugin: CreatedWebhook;

  beforeAll(async () => {
    plugin = await t.api.addWebhook(t.form.id, PUBLIC_URL);
  });

  it('a readonly key cannot create, delete or rotate → 403', async () => {
    const path = `${pluginsPath()}/${plugin.id}`;
    const create = await t.readonly.post(pluginsPath(), {
      plugin_type: 'webhook',
      config: { url: PUBLIC_URL },
    });
    expectError(create, 403, 'forbidden');
    expectError(await t.readonly.delete(path), 403, 'forbidden');
    expectError(await t.readonly.post(`${path}/rotate_secret`), 403, 'forbidden');
    expect(await storedSecret(plugin.id)).toBe(plugin.signing_secret);
    expect((await t.api.get(path)).status).toBe(200);
  });

  it('another account gets 404 for list, get, create, delete and rotate', async () => {
    const stranger = await t.newTenant();
    const path = `${pluginsPath()}/${plugin.id}`;
    const attempts = [
      stranger.api.get(pluginsPath()),
      stranger.api.get(path),
      stranger.api.post(pluginsPath(), { plugin_type: 'webhook', config: { url: PUBLIC_URL } }),
      stranger.api.delete(path),
      stranger.api.post(`${path}/rotate_secret`),
    ];
    for (const res of await Promise.all(attempts)) expectError(res, 404, 'not_found');
    expect(await storedSecret(plugin.id)).toBe(plugin.signing_secret);
  });

  it('another account cannot reach a plugin through its own form either', async () => {
    const stranger = await t.newTenant();
    const own = await stranger.api.createForm({ name: 'Mine' });
    const path = `/api/forms/${own.id}/plugins/${plugin.id}`;
    expectError(await stranger.api.get(path), 404, 'not_found');
    expectError(await stranger.api.delete(path), 404, 'not_found');
    expect((await t.api.get(`${pluginsPath()}/${plugin.id}`)).status).toBe(200);
  });

  it('405 with Allow on a wrong method', async () => {
    const res = await t.api.send('PUT', `${pluginsPath()}/${plugin.id}`);
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });
});
