import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form, Plugin } from '../../db/entities';
import type { AccountMailing } from '../../domain/accounts/registration';
import type { UseCaseAudit } from '../../domain/audit/use-case-audit';
import { requestConfirmations } from '../../domain/recipients/confirmations';
import type { PluginTypeKey } from '../../../workflows/delivery-kinds';
import { sealConfig } from './plugin-secrets';
import { PLUGIN_TYPES } from '../registry';
import { createTypedPlugin } from './plugins';
import { newSigningSecret, type SigningSecretCipher } from '../../domain/secrets/signing-secret';
import { urlCheckOptions, type UrlPolicySource } from './url-policy';
import { checkPluginRouting, type RoutingInput } from './plugin-routing';

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

/** A plugin to add: its config as given (checked here), `conditions`, `includeFields` likewise. */
export type PluginToCreate = {
  type: PluginTypeKey;
  config: unknown;
  name?: string;
  enabled?: boolean;
} & RoutingInput;

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
  input: PluginToCreate,
): Promise<CreatedPlugin> {
  const type = PLUGIN_TYPES[input.type];
  const routed = checkPluginRouting(input);
  const checked = await type.check(input.config, urlCheckOptions(deps));
  if (!checked.ok || !routed.ok)
    throw new PluginConfigRefusedError([
      ...(checked.ok ? [] : checked.errors),
      ...(routed.ok ? [] : routed.errors),
    ]);
  // A type that signs its deliveries gets its secret now, shown this once.
  const signingSecret = type.signs ? newSigningSecret() : null;
  const plugin = await createTypedPlugin(
    em,
    {
      formId: form.id,
      type: input.type,
      config: sealConfig(type, checked.config, deps.pluginSecrets),
      name: input.name || type.defaultName(checked.config),
      enabled: input.enabled,
      signingSecret: signingSecret && deps.signingSecrets.seal(signingSecret),
      ...routed.routing,
    },
    deps.config.budgets.pluginsPerForm,
  );
  const addresses = type.recipients(checked.config);
  if (addresses) {
    await requestConfirmations(em, deps.accounts.mailing, {
      accountId: form.accountId,
      formName: form.name,
      addresses,
      mailPerHour: deps.config.accountMailPerHour,
    });
  }
  const summary = `${type.createdSummary(checked.config)} on form ${form.id}`;
  return { plugin, signingSecret, audit: { targetId: plugin.id, summary } };
}
