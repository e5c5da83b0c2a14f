import type { Formward } from './stack';

/** An account and an admin API key, made with the CLI as an operator would. */
export async function createApiKey(formward: Formward): Promise<string> {
  const account = await formward.cli([
    'account',
    'create',
    '--email',
    'bench@example.com',
    '--password',
    'bench-password',
    '--name',
    'Bench',
  ]);
  const key = await formward.cli([
    'key',
    'create',
    '--account',
    String(account.account_id),
    '--role',
    'admin',
    '--name',
    'bench',
  ]);
  return String(key.key);
}

async function post<T>(url: string, key: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as T;
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`POST ${url}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

export type BenchForm = { id: string; token: string };

export async function createForm(url: string, key: string, name = 'Bench'): Promise<BenchForm> {
  const body = await post<{ form?: { id?: unknown; endpoint_token?: string } }>(
    `${url}/api/forms`,
    key,
    { name },
  );
  const token = body.form?.endpoint_token;
  if (!token || body.form?.id === undefined)
    throw new Error(`POST /api/forms: no id or endpoint_token in ${JSON.stringify(body)}`);
  return { id: String(body.form.id), token };
}

/** A webhook plugin on the form; returns its signing secret (shown this once). */
export async function addWebhook(
  url: string,
  key: string,
  formId: string,
  hookUrl: string,
): Promise<{ id: string; signingSecret: string }> {
  const body = await post<{ plugin?: { id?: unknown; signing_secret?: string } }>(
    `${url}/api/forms/${formId}/plugins`,
    key,
    { plugin_type: 'webhook', config: { url: hookUrl } },
  );
  const secret = body.plugin?.signing_secret;
  if (!secret) throw new Error(`POST plugins: no signing_secret in ${JSON.stringify(body)}`);
  return { id: String(body.plugin?.id), signingSecret: secret };
}
