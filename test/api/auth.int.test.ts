import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectAnswer,
  expectError,
  rels,
  type ApiClient,
  type ApiResponse,
} from '../support/api-client';
import { revokeKey } from '../support/database-edits';
import { useTestStack } from '../support/fixture';

const t = useTestStack();
const rootOf = (res: ApiResponse) => expectAnswer(res, 'GET /api', 200);
let spamOnly: ApiClient;

beforeAll(async () => {
  spamOnly = await t.clientFor(['can_read_spam_submissions']);
});

const protectedEndpoints: Array<[string, string]> = [
  ['GET', '/api'],
  ['GET', '/api/'],
  ['GET', '/api/forms'],
  ['POST', '/api/forms'],
  ['GET', '/api/forms/1'],
  ['GET', '/api/submissions'],
  ['GET', '/api/submissions/spam'],
  ['GET', '/api/form_stats/1'],
  ['GET', '/api/stats'],
  ['GET', '/api/forms/1/plugins'],
];

describe('missing credentials', () => {
  it.each(protectedEndpoints)('%s %s without a key → 401 unauthorized', async (method, path) => {
    const res = await t.http.send(method, path);
    expectError(res, 401, 'unauthorized');
  });

  it('says how to authenticate', async () => {
    const { message } = expectError(await t.http.get('/api/forms'), 401, 'unauthorized');
    expect(message).toMatch(/Bearer/);
  });
});

describe('invalid credentials', () => {
  it.each([
    ['a Basic header', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a key', 'Bearer'],
    ['Bearer with two words', 'Bearer frk_a frk_b'],
    ['another scheme', 'Token frk_abcdef'],
  ])('%s → 401 invalid_api_key', async (_label, header) => {
    const res = await t.http.get('/api/forms', {
      headers: { authorization: header },
    });
    expectError(res, 401, 'invalid_api_key');
  });

  it('an unknown key with the right prefix → 401 invalid_api_key', async () => {
    const res = await t.http.get('/api', {
      key: `frk_${randomBytes(32).toString('base64url')}`,
    });
    expectError(res, 401, 'invalid_api_key');
  });

  it('a key without the frk_ prefix → 401 invalid_api_key', async () => {
    const res = await t.http.get('/api', { key: 'sk_live_123' });
    expectError(res, 401, 'invalid_api_key');
  });

  it('a key differing from a real one by one character → 401 invalid_api_key', async () => {
    const key = t.adminKey;
    const tampered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    const res = await t.http.get('/api', { key: tampered });
    expectError(res, 401, 'invalid_api_key');
  });

  it('a revoked key worked before and answers invalid_api_key after revocation', async () => {
    const key = await t.stack.createKey(t.accountId, 'admin');
    expect((await t.http.get('/api', { key })).status).toBe(200);
    await revokeKey(t.stack, key);
    expectError(await t.http.get('/api', { key }), 401, 'invalid_api_key');
    expectError(await t.http.get('/api/forms', { key }), 401, 'invalid_api_key');
  });

  it('a bad key is refused even on an unknown /api path (no route probing)', async () => {
    const res = await t.http.get('/api/nothing-here', { key: 'frk_nope' });
    expectError(res, 401, 'invalid_api_key');
  });
});

describe('scopes', () => {
  it('a readonly key cannot create a form → 403 forbidden', async () => {
    const res = await t.readonly.post('/api/forms', { name: 'Nope' });
    expectError(res, 403, 'forbidden');
    const list = expectAnswer(await t.api.get('/api/forms'), 'GET /api/forms', 200);
    expect(list.forms.map((f) => f.name)).not.toContain('Nope');
  });

  it('a readonly key cannot update a form → 403 forbidden', async () => {
    const form = await t.api.createForm({ name: 'Owned by admin' });
    const res = await t.readonly.patch(`/api/forms/${form.id}`, { name: 'Renamed' });
    expectError(res, 403, 'forbidden');
    const read = await t.api.get(`/api/forms/${form.id}`);
    expect(expectAnswer(read, 'GET /api/forms/{id}', 200).form.name).toBe('Owned by admin');
  });

  it('a readonly key reads forms and non-spam submissions but not spam', async () => {
    expect((await t.readonly.get('/api/forms')).status).toBe(200);
    expect((await t.readonly.get('/api/submissions')).status).toBe(200);
    expectError(await t.readonly.get('/api/submissions/spam'), 403, 'forbidden');
  });

  it('a key with only the spam scope lists spam but not non-spam submissions', async () => {
    const spam = await spamOnly.get('/api/submissions/spam');
    expect(expectAnswer(spam, 'GET /api/submissions/spam', 200).submissions).toEqual([]);
    expectError(await spamOnly.get('/api/submissions'), 403, 'forbidden');
    expectError(await spamOnly.post('/api/forms', { name: 'x' }), 403, 'forbidden');
  });

  it('the 403 message names the missing scope', async () => {
    const { message } = expectError(await spamOnly.get('/api/submissions'), 403, 'forbidden');
    expect(message).toContain('can_read_submissions');
  });
});

describe('GET /api', () => {
  it.each(['/api', '/api/'] as const)(
    '%s returns the account id and the admin key links',
    async (path) => {
      const root = expectAnswer(await t.api.get(path), `GET ${path}`, 200);
      expect(root.ok).toBe(true);
      expect(root.account_id).toBe(t.accountId);
      expect(rels(root.links)).toEqual(
        expect.arrayContaining(['self', 'forms', 'create_form', 'submissions', 'spam_submissions']),
      );
      expect(root.links).toContainEqual({
        rel: 'create_form',
        href: `${t.stack.url}/api/forms`,
        method: 'POST',
      });
      expect(rels(root.links)).not.toContain('stats');
    },
  );

  it('a readonly key gets no create_form and no spam link', async () => {
    const root = rootOf(await t.readonly.get('/api'));
    expect(root.account_id).toBe(t.accountId);
    expect(rels(root.links)).toContain('submissions');
    expect(rels(root.links)).not.toContain('create_form');
    expect(rels(root.links)).not.toContain('spam_submissions');
  });

  it('a spam-only key gets the spam link but not the submissions link', async () => {
    const root = rootOf(await spamOnly.get('/api'));
    expect(rels(root.links)).toContain('spam_submissions');
    expect(rels(root.links)).not.toContain('submissions');
    expect(rels(root.links)).not.toContain('create_form');
  });

  it('each key sees its own account id', async () => {
    const other = await t.newTenant();
    const root = rootOf(await other.api.get('/api'));
    expect(root.account_id).toBe(other.accountId);
    expect(root.account_id).not.toBe(t.accountId);
  });

  it('POST /api → 405 with Allow: GET', async () => {
    const res = await t.api.post('/api');
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('an unknown /api path with a valid key → 404 not_found', async () => {
    expectError(await t.api.get('/api/nothing-here'), 404, 'not_found');
  });
});
