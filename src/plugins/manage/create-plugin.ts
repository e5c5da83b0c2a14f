import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form, Plugin } from '../../db/entities';
import type { AccountMailing } from '../../domain/accounts/registration';
import type { UseCaseAudit } from '../../domain/audit/use-case-audit';
import { requestConfirmations } from '../../domain/recipients/confirmations';
import type { PluginTypeKey } from '../../../workflows/delivery-kinds';
import { sealConfig } from './plugin-secrets';
import { PLUGIN_TYPES } from '../registry';
import { createTypedPlugin, createWebhookPlugin } from './plugins';
import type { SigningSecretCipher } from '../../domain/secrets/signing-secret';
import { checkWebhookUrl, urlCheckOptions, type UrlPolicySource } from './url-policy';
import { checkPluginRouting, type RoutingInput } from './plugin-routing';
import { checkWebhookHeaders } from '../webhook/webhook-headers';

/** What creating a plugin needs (the app context has it all). */
export type CreatePluginDeps = UrlPolicySource & {
  signingSecrets: SigningSecretCipher;
  pluginSecrets: SigningSecretCipher;
  config: {
    budgets: { pluginsPerForm: number };
    /** ACCOUNT_MAIL_PER_HOUR. */
    accountMailPerHour: number;
  };
  accounts: { mailing: AccountMailing };
};

/** The plugin's config did not pass its checks: `field: message` problems (docs/plugins.md). */
export class PluginConfigRefusedError extends Error {
  override name = 'PluginConfigRefusedError';

  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

/** `headers` unchecked as given (webhook-headers.ts); `conditions`, `includeFields` likewise. */
export type WebhookToCreate = {
  type: 'webhook';
  url: string;
  headers?: unknown;
  name?: string;
  enabled?: boolean;
} & RoutingInput;
export type PluginToCreate =
  | WebhookToCreate
  | ({ type: Exclude<PluginTypeKey, 'webhook'>; config: unknown; name?: string } & RoutingInput);

export type CreatedPlugin = {
  plugin: Plugin;
  /** A webhook's signing secret, in the clear this once; null for the other types. */
  signingSecret: string | null;
  audit: UseCaseAudit;
};

/**
 * Adding a plugin to a form, for `POST /api/forms/{id}/plugins` (webhooks) and the dashboard's
 * plugin page (every type): the URL or config passes the same checks on every path (https,
 * public addresses, no loop to this service; PluginConfigRefusedError otherwise), the form's
 * plugin budget must allow one more (LimitReachedError, MAX_PLUGINS_PER_FORM), and an e-mail
 * plugin's addresses not yet confirmed for the account are asked to confirm.
 */
export async function createPlugin(
  em: EntityManager,
  deps: CreatePluginDeps,
  form: Form,
  input: WebhookToCreate,
): Promise<CreatedPlugin & { signingSecret: string }>;
export async function createPlugin(
  em: EntityManager,
  deps: CreatePluginDeps,
  form: Form,
  input: PluginToCreate,
): Promise<CreatedPlugin>;
export async function createPlugin(
  em: EntityManager,
  deps: CreatePluginDeps,
  form: Form,
  input: PluginToCreate,
): Promise<CreatedPlugin> {
  const maxPlugins = deps.config.budgets.pluginsPerForm;
  const routed = checkPluginRouting(input);
  if (input.type === 'webhook') {
    const checked = await checkWebhookUrl(input.url, deps);
    const headers = checkWebhookHeaders(input.headers);
    const problems = [
      ...(checked.ok ? [] : checked.errors),
      ...(headers.ok ? [] : headers.errors),
      ...(routed.ok ? [] : routed.errors),
    ];
    if (!checked.ok || !headers.ok || !routed.ok) throw new PluginConfigRefusedError(problems);
    const config = headers.headers.length > 0 ? { headers: headers.headers } : {};
    const created = await createWebhookPlugin(
      em,
      deps.signingSecrets,
      {
        formId: form.id,
        url: checked.url,
        config: sealConfig(PLUGIN_TYPES.webhook, config, deps.pluginSecrets),
        name: input.name,
        enabled: input.enabled,
        ...routed.routing,
      },
      maxPlugins,
    );
    const summary = `webhook to ${new URL(checked.url).host} on form ${form.id}`;
    return { ...created, audit: { targetId: created.plugin.id, summary } };
  }
  const type = PLUGIN_TYPES[input.type];
  const checked = await type.check(input.config, urlCheckOptions(deps));
  if (!checked.ok || !routed.ok)
    throw new PluginConfigRefusedError([
      ...(checked.ok ? [] : checked.errors),
      ...(routed.ok ? [] : routed.errors),
    ]);
  const plugin = await createTypedPlugin(
    em,
    {
      formId: form.id,
      type: input.type,
      config: sealConfig(type, checked.config, deps.pluginSecrets),
      name: input.name || type.defaultName(checked.config),
      ...routed.routing,
    },
    maxPlugins,
  );
  if (input.type === 'email') {
    await requestConfirmations(em, deps.accounts.mailing, {
      accountId: form.accountId,
      formName: form.name,
      addresses: checked.config.recipients as string[],
      mailPerHour: deps.config.accountMailPerHour,
    });
  }
  const summary = `${input.type} plugin on form ${form.id}`;
  return { plugin, signingSecret: null, audit: { targetId: plugin.id, summary } };
}
