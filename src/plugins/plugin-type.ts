import type { z } from 'zod';
import type { PluginTypeKey } from '../../workflows/delivery-kinds';
import type { UrlCheckOptions } from './manage/plugin-configs';
import type { DeliverAttempt, PluginDeliveryDeps } from './delivery/attempt';
import type { DeliverableExtras } from '../db/sql/workflow-step-reads';

/*
 * What one plugin type is, declared once (<type>/declaration.ts, listed in registry.ts): the config it
 * takes and how it is checked, which fields are secrets, what a reader may see, what the
 * dashboard asks for, the line that says where it delivers, and the hooks the shared code calls
 * (creation, headers, recipients, one delivery attempt). The API views, the dashboard, the
 * delivery plan and docs/plugins.md all read the declaration; its delivery is registered by
 * deliveries.ts under the activity name workflows/delivery-kinds.ts gives it.
 */

/** A stored config: JSON, secrets sealed (plugin-secrets.ts). */
export type PluginConfig = Record<string, unknown>;

/** The result of checking a config: the config to store, or `field: message` problems. */
export type ConfigCheck<C extends PluginConfig = PluginConfig> =
  { ok: true; config: C } | { ok: false; errors: string[] };

/**
 * One input of the dashboard's add form; `list` is split on commas, semicolons and lines.
 * `secret` and `secret-textarea` (a pasted key file) are never filled in again after an error.
 */
export type ConfigField = {
  name: string;
  label: string;
  input: 'text' | 'url' | 'secret' | 'secret-textarea' | 'textarea' | 'list';
  required: boolean;
  placeholder?: string;
  hint?: string;
};

/** What every type declares the same way, whatever its config. */
type PluginTypeFacts = {
  key: PluginTypeKey;
  /** How pages and docs name the type: `Slack`. */
  label: string;
  /** What the add form adds: `a Slack channel`. */
  noun: string;
  /** `api`: created through `POST /api/forms/{id}/plugins` too (webhook); others: dashboard only. */
  createdThrough: 'api' | 'dashboard';
  /**
   * Whether deliveries are signed with a secret of its own (shown once, rotatable). Such a
   * type keeps the names its changes had in the audit log (`webhook.created`).
   */
  signs: boolean;
  /**
   * What the audit log and the flashes call a change of its plugins: `webhook.created` for
   * the webhook, which had these names before every type shared one set of pages; `plugin`
   * when absent.
   */
  changeNoun?: 'webhook' | 'plugin';
  /** The dashboard's add form, in order. */
  fields: readonly ConfigField[];
  /** Top-level config fields holding a secret: stored sealed, never shown again. */
  sealed: readonly string[];
  /**
   * Secrets inside a list of objects (a webhook's `headers[].value`): each item's `key` is
   * sealed and masked like a top-level sealed field. Absent: none.
   */
  sealedInLists?: readonly { list: string; key: string }[];
  /**
   * What a reader who may not manage plugins sees (plugin-config-visibility.ts): `keep`
   * fields as stored, `origin` fields (capability URLs) cut to their scheme and host.
   */
  redacted: { keep: readonly string[]; origin: readonly string[] };
  /** Where it delivers, in a few words, from the config a reader may see: `hooks.slack.com`. */
  summary(visible: PluginConfig): string;
  /**
   * What an attempt reads besides the plugin and the submission, in the same statement
   * (src/db/sql/workflow-step-reads.ts): the uploads, the form's field names. Absent: nothing.
   */
  reads?: DeliverableExtras;
};

/** A change of a type's headers: the config with the new set, or null when nothing changed. */
export type HeadersChange<C> = { ok: true; config: C | null } | { ok: false; errors: string[] };

/**
 * One plugin type as its folder defines it (<type>/declaration.ts), with its config typed:
 * `config` is the shape a stored config has (secrets opened), and every hook gets it read
 * through that schema, so no code casts a config back to its type.
 */
export type PluginTypeDefinition<C extends PluginConfig> = PluginTypeFacts & {
  /** The stored config's shape (secrets opened): what check returned, read back. */
  config: z.ZodType<C>;
  /**
   * The config as given (the API's body, or the dashboard's fields) checked: the schema, then
   * any network rule (a URL's address, no loop to this service). Secrets still in the clear.
   */
  check(raw: unknown, urls: UrlCheckOptions): Promise<ConfigCheck<C>>;
  /** The name a plugin gets when none is given. */
  defaultName(config: C): string;
  /** How the audit log names a new plugin of the type: `webhook to example.com`. */
  createdSummary?(config: C): string;
  /** The addresses the type mails, which the account must confirm first (e-mail). */
  recipients?(config: C): string[];
  /** A change of the headers it sends (webhooks); a type without this has no headers. */
  changeHeaders?(stored: C, given: unknown): HeadersChange<C>;
  /** One attempt of a delivery, bound to the worker's dependencies (delivery/attempt.ts). */
  delivery(deps: PluginDeliveryDeps): DeliverAttempt<C>;
};

/** A stored config that its type's schema does not read (written by an older version). */
export class UnreadableConfigError extends Error {
  override name = 'UnreadableConfigError';
}

/**
 * A type as the rest of the code uses it, whatever its config: each hook reads the stored
 * config through the type's schema first (UnreadableConfigError when it does not fit).
 */
export type PluginTypeDeclaration = PluginTypeFacts & {
  check(raw: unknown, urls: UrlCheckOptions): Promise<ConfigCheck>;
  defaultName(config: PluginConfig): string;
  createdSummary(config: PluginConfig): string;
  recipients(config: PluginConfig): string[] | null;
  changeHeaders: ((stored: PluginConfig, given: unknown) => HeadersChange<PluginConfig>) | null;
  delivery(deps: PluginDeliveryDeps): DeliverAttempt<PluginConfig>;
};

/** A type's definition as the registry lists it (see PluginTypeDeclaration). */
export function definePluginType<C extends PluginConfig>(
  definition: PluginTypeDefinition<C>,
): PluginTypeDeclaration {
  const {
    config: schema,
    defaultName,
    createdSummary,
    recipients,
    changeHeaders,
    delivery,
    ...facts
  } = definition;
  const read = (config: PluginConfig): C => {
    const parsed = schema.safeParse(config);
    if (parsed.success) return parsed.data;
    throw new UnreadableConfigError(
      `the stored ${definition.key} settings do not fit the type: ${configProblems(parsed.error).join('; ')}`,
    );
  };
  return {
    ...facts,
    defaultName: (config) => defaultName(read(config)),
    createdSummary: (config) =>
      createdSummary ? createdSummary(read(config)) : `${definition.key} plugin`,
    recipients: (config) => (recipients ? recipients(read(config)) : null),
    changeHeaders: changeHeaders ? (stored, given) => changeHeaders(read(stored), given) : null,
    delivery(deps) {
      const attempt = delivery(deps);
      return (given) => attempt({ ...given, config: read(given.config) });
    },
  };
}

/** zod's issues as `field: message`, the form every config problem takes. */
export function configProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${String(issue.path[0] ?? 'config')}: ${issue.message}`);
}

/** A schema-only check: the declaration's `check` for a type with no network rule. */
export function schemaCheck<C extends PluginConfig>(schema: z.ZodType<C, unknown>) {
  return async (raw: unknown): Promise<ConfigCheck<C>> => {
    const parsed = schema.safeParse(raw);
    return parsed.success
      ? { ok: true, config: parsed.data }
      : { ok: false, errors: configProblems(parsed.error) };
  };
}
