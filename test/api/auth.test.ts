import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, rels, type ApiClient } from '../support/api-client';
import { revokeKey } from '../support/database-edits';
import { useTestStack } from '../support/fixture';

const t = useTestStack();
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
    const res = await t.http.get('/api/forms');
    expect(res.body.message).toMatch(/Bearer/);
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
    const list = await t.api.get('/api/forms');
    expect(list.body.forms.map((f: { name: string }) => f.name)).not.toContain('Nope');
  });

  it('a readonly key cannot update a form → 403 forbidden', async () => {
    const form = await t.api.createForm({ name: 'Owned by admin' });
    const res = await t.readonly.patch(`/api/forms/${form.id}`, { name: 'Renamed' });
    expectError(res, 403, 'forbidden');
    expect((await t.api.get(`/api/forms/${form.id}`)).body.form.name).toBe('Owned by admin');
  });

  it('a readonly key reads forms and non-spam submissions but not spam', async () => {
    expect((await t.readonly.get('/api/forms')).status).toBe(200);
    expect((await t.readonly.get('/api/submissions')).status).toBe(200);
    expectError(await t.readonly.get('/api/submissions/spam'), 403, 'forbidden');
  });

  it('a key with only the spam scope lists spam but not non-spam submissions', async () => {
    const spam = await spamOnly.get('/api/submissions/spam');
    expect(spam.status).toBe(200);
    expect(spam.body.submissions).toEqual([]);
    expectError(await spamOnly.get('/api/submissions'), 403, 'forbidden');
    expectError(await spamOnly.post('/api/forms', { name: 'x' }), 403, 'forbidden');
  });

  it('the 403 message names the missing scope', async () => {
    const res = await spamOnly.get('/api/submissions');
    expect(res.body.message).toContain('can_read_submissions');
  });
});

describe('GET /api', () => {
  it.each(['/api', '/api/'])('%s returns the account id and the admin key links', async (path) => {
    const res = await t.api.get(path);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.account_id).toBe(t.accountId);
    expect(rels(res.body.links)).toEqual(
      expect.arrayContaining(['self', 'forms', 'create_form', 'submissions', 'spam_submissions']),
    );
    expect(res.body.links).toContainEqual({
      rel: 'create_form',
      href: `${t.stack.url}/api/forms`,
      method: 'POST',
    });
    expect(rels(res.body.links)).not.toContain('stats');
  });

  it('a readonly key gets no create_form and no spam link', async () => {
    const res = await t.readonly.get('/api');
    expect(res.body.account_id).toBe(t.accountId);
    expect(rels(res.body.links)).toContain('submissions');
    expect(rels(res.body.links)).not.toContain('create_form');
    expect(rels(res.body.links)).not.toContain('spam_submissions');
  });

  it('a spam-only key gets the spam link but not the submissions link', async () => {
    const res = await spamOnly.get('/api');
    expect(rels(res.body.links)).toContain('spam_submissions');
    expect(rels(res.body.links)).not.toContain('submissions');
    expect(rels(res.body.links)).not.toContain('create_form');
  });

  it('each key sees its own account id', async () => {
    const other = await t.newTenant();
    const res = await other.api.get('/api');
    expect(res.body.account_id).toBe(other.accountId);
    expect(res.body.account_id).not.toBe(t.accountId);
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
