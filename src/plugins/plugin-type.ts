import type { z } from 'zod';
import type { PluginTypeKey } from '../../workflows/delivery-kinds';
import type { UrlCheckOptions } from './manage/plugin-configs';

/*
 * What one plugin type is, declared once (<type>/declaration.ts, listed in registry.ts): the config it
 * takes and how it is checked, which fields are secrets, what a reader may see, what the
 * dashboard asks for, and the line that says where it delivers. The API views, the dashboard,
 * the delivery plan and docs/plugins.md all read the declaration; the delivery itself is the
 * type's <type>/delivery.ts, registered by activities/index.ts under the activity name
 * workflows/delivery-kinds.ts gives it.
 */

/** A stored config: JSON, secrets sealed (plugin-secrets.ts). */
export type PluginConfig = Record<string, unknown>;

/** The result of checking a config: the config to store, or `field: message` problems. */
export type ConfigCheck = { ok: true; config: PluginConfig } | { ok: false; errors: string[] };

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

export type PluginTypeDeclaration = {
  key: PluginTypeKey;
  /** How pages and docs name the type: `Slack`. */
  label: string;
  /** What the add form adds: `a Slack channel`. */
  noun: string;
  /** `api`: created through `POST /api/forms/{id}/plugins` too (webhook); others: dashboard only. */
  createdThrough: 'api' | 'dashboard';
  /** Whether deliveries are signed with a secret of its own (shown once, rotatable). */
  signs: boolean;
  /** The dashboard's add form, in order. */
  fields: readonly ConfigField[];
  /**
   * The config as given (the API's body, or the dashboard's fields) checked: the schema, then
   * any network rule (a URL's address, no loop to this service). Secrets still in the clear.
   */
  check(raw: unknown, urls: UrlCheckOptions): Promise<ConfigCheck>;
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
  /** The name a plugin gets when none is given. */
  defaultName(config: PluginConfig): string;
  /** Where it delivers, in a few words, from the config a reader may see: `hooks.slack.com`. */
  summary(visible: PluginConfig): string;
};

/** zod's issues as `field: message`, the form every config problem takes. */
export function configProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${String(issue.path[0] ?? 'config')}: ${issue.message}`);
}

/** A schema-only check: the declaration's `check` for a type with no network rule. */
export function schemaCheck(schema: z.ZodType<PluginConfig>) {
  return async (raw: unknown): Promise<ConfigCheck> => {
    const parsed = schema.safeParse(raw);
    return parsed.success
      ? { ok: true, config: parsed.data }
      : { ok: false, errors: configProblems(parsed.error) };
  };
}
