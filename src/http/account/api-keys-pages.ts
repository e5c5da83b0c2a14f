import { z } from 'zod';
import {
  createApiKey,
  keyCreators,
  listActiveApiKeys,
  revokeAccountApiKey,
} from '../../domain/accounts/api-keys';
import { LimitReachedError } from '../../domain/budgets/limit-reached';
import { ROLES, SCOPES, type Role, type Scope } from '../../domain/accounts/scopes';
import type { ApiKey } from '../../domain/entities';
import { definePage, type Render } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { formatTime } from '../kit/chrome/format-time';
import { revealOnce } from '../kit/session/reveal-once';
import type { Request, Response } from 'express';
import type { DashboardSession } from '../kit/session/session-guard';
import type { KeyRow, Templates } from '../kit/chrome/template-data';

const KEYS = { access: 'session', template: 'api-keys', title: 'API keys' } as const;
/** Managing keys takes what an admin holds (password-reset-pages.ts sends others elsewhere). */
export const KEYS_NEED = 'can_create_forms' as const;

/** What each scope lets a key do, in words. */
const SCOPE_LABELS: Record<Scope, string> = {
  can_create_forms: 'create and change forms and webhooks',
  can_read_submissions: 'read submissions',
  can_read_spam_submissions: 'read spam submissions',
};

const scopeList = z
  .union([z.enum(SCOPES), z.array(z.enum(SCOPES))])
  .optional()
  .transform((value) => (value === undefined ? [] : [value].flat()));

const newKeyForm = z.object({
  name: z.string().trim().min(1, 'Give the key a name.').max(200, 'At most 200 characters.'),
  role: z.enum(['admin', 'readonly', 'custom'], { error: 'Choose a role.' }),
  scopes: scopeList,
});

/** One row of the list: the key's role (or its scopes), who created it and its last use. */
export function keyRow(key: ApiKey, creator: string | undefined): KeyRow {
  return {
    // Keys made with the CLI, and those made before creators were recorded, have none.
    createdBy: creator ?? 'not recorded (CLI or older key)',
    id: key.id,
    name: key.name,
    access: key.role ?? (key.scopes.join(', ') || 'no scopes'),
    prefix: key.prefix,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt ?? null,
  };
}

/** Parses the urlencoded fields; `scopes` repeats (the form's checkboxes). */
function keyFields(req: Request) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  return { name: body.name, role: body.role, scopes: body.scopes };
}

type KeysPage = {
  req: Request;
  res: Response;
  session: DashboardSession;
  render: Render<'api-keys'>;
};

/** The keys page, with the form as typed and its errors after a refused create. */
async function showKeys(
  { req, session, render }: KeysPage,
  extra: { status?: number; data?: Partial<Templates['api-keys']> } = {},
) {
  const active = await listActiveApiKeys(req.em, session.accountId);
  const creators = await keyCreators(req.em, active);
  const keys = active.map((key) => keyRow(key, creators.get(key.id)));
  await render(
    {
      keys,
      formatTime,
      scopes: SCOPES,
      scopeLabels: SCOPE_LABELS,
      roles: ROLES,
      form: {},
      ...extra.data,
    },
    { status: extra.status },
  );
}

/**
 * `/app/keys`: the account's active API keys; create one (Admin, Readonly or chosen scopes),
 * shown once; revoke one, refused by the API from then on.
 */
export const apiKeyPages = [
  definePage({ need: KEYS_NEED, ...KEYS, method: 'get', path: '/app/keys' }).handle((page) =>
    showKeys(page),
  ),

  definePage({
    need: KEYS_NEED,
    ...KEYS,
    method: 'post',
    path: '/app/keys',
    audit: { action: 'api_key.created', target: 'api_key' },
  }).handle(async (page, ctx) => {
    const { req, res, session, audit } = page;
    const fields = keyFields(req);
    const parsed = newKeyForm.safeParse(fields);
    const again = (errors: Record<string, string>) =>
      showKeys(page, { status: 422, data: { errors, form: fields } });
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
      return again(errors);
    }
    const { name, role, scopes } = parsed.data;
    if (role === 'custom' && scopes.length === 0)
      return again({ scopes: 'Choose at least one scope.' });
    let created;
    try {
      created = await createApiKey(
        req.em,
        {
          accountId: session.accountId,
          createdByUserId: session.userId,
          name,
          role: role === 'custom' ? null : role,
          scopes: role === 'custom' ? scopes : [...ROLES[role as Role]],
        },
        ctx.config.budgets.apiKeysPerAccount,
      );
    } catch (error) {
      if (!(error instanceof LimitReachedError)) throw error;
      audit.skip = true;
      return showKeys(page, { status: 409, data: { limitReached: error.message, form: fields } });
    }
    audit.targetId = created.apiKey.id;
    audit.summary = `key “${created.apiKey.name}” (${created.apiKey.prefix}…), ${role}`;
    // The key is stored as a hash: the page the redirect leads to shows it once.
    revealOnce(res, ctx, '/app/keys', {
      created: { name: created.apiKey.name, key: created.key },
    });
    res.redirect(303, '/app/keys');
  }),

  definePage({
    need: KEYS_NEED,
    ...KEYS,
    method: 'post',
    path: '/app/keys/:id/revoke',
    audit: { action: 'api_key.revoked', target: 'api_key' },
  }).handle(async (page, ctx) => {
    const { req, res, params, session, audit } = page;
    const revoked = await revokeAccountApiKey(req.em, session.accountId, params.id);
    if (!revoked) return showKeys(page, { status: 404, data: { notFound: true } });
    audit.summary = `key “${revoked.name}” (${revoked.prefix}…)`;
    setFlash(res, ctx.urls.base, 'key_revoked');
    res.redirect(303, '/app/keys');
  }),
];
