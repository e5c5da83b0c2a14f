import { describe, expect, it } from 'vitest';
import { expectAnswer, expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { contactFields, postJson } from '../support/ingest-requests';

const t = useTestStack({ worker: true, form: {} });

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** How many submissions the form has stored, through the admin key. */
async function storedCount(): Promise<number> {
  return (await t.api.submissionIds(`/api/submissions?form_id=${t.form.id}&limit=500`)).length;
}

describe('POST /json/{token}?test=true needs a key with can_create_forms', () => {
  it('without a key it is 401 unauthorized and nothing is stored or run', async () => {
    const before = await storedCount();
    const res = await postJson(`${t.form.json_url}?test=true`, contactFields);
    expectError(res, 401, 'unauthorized');
    expect(await storedCount()).toBe(before);
  });

  it('an unknown key is 401 invalid_api_key', async () => {
    const res = await postJson(
      `${t.form.json_url}?test=true`,
      contactFields,
      bearer('fw_live_unknown'),
    );
    expectError(res, 401, 'invalid_api_key');
  });

  it("a readonly key, or another account's admin key, is 403 forbidden", async () => {
    const readonlyKey = await t.stack.createKey(t.accountId, 'readonly');
    expectError(
      await postJson(`${t.form.json_url}?test=true`, contactFields, bearer(readonlyKey)),
      403,
      'forbidden',
    );
    const other = await t.newTenant();
    expectError(
      await postJson(`${t.form.json_url}?test=true`, contactFields, bearer(other.adminKey)),
      403,
      'forbidden',
    );
  });

  it("the form account's admin key runs the test", async () => {
    const res = await postJson(`${t.form.json_url}?test=true`, contactFields, bearer(t.adminKey));
    const body = expectAnswer(res, 'POST /json/{endpoint_token}', 200);
    expect(body).toMatchObject({ ok: true, test: true, deliveries: [] });
  });

  it('a normal submission still needs no key', async () => {
    const res = await postJson(t.form.json_url, contactFields);
    expect(expectAnswer(res, 'POST /json/{endpoint_token}', 200).test).toBeUndefined();
  });
});
