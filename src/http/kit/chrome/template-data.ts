import type { ROLES, Scope } from '../../../domain/accounts/scopes';
import type { FormCounts } from '../../../domain/forms/form-counts';
import type { MailboxEntry } from '../../../domain/mail/dev-mailbox';
import type { ConfigField } from '../../../plugins/plugin-type';
import type { RecoveryRow } from '../../../plugins/manage/recovery';
import type { RecipientStatus } from '../../../domain/recipients/recipient-states';
import type { accountStats } from '../../../domain/stats/account-stats';
import type { Activity } from '../../../domain/stats/activity-series';
import type { formStats } from '../../../domain/stats/form-stats';
import type { RANGES } from '../../../domain/submissions/range';
import type { AttemptRow } from '../../../domain/deliveries/delivery-records';
import type { BuilderView } from '../../forms/builder-view';
import type { FormSectionLink } from '../../forms/form-sections';
import type { FormView } from '../../forms/form-view';
import type { SubmissionView } from '../../submissions/submission-view';
import type { TestDeliveryView } from '../../ingest/test-deliveries';
import type { AutoresponseSection } from '../../forms/autoresponse-fields';
import type { FieldErrors, FormSettingsInput } from '../../forms/form-settings-fields';
import type { formatTime } from './format-time';
import type { FormRef, PluginRow } from '../../forms/page-views';
import type { CaptchaView } from '../../../domain/captcha/captcha-settings';
import type { CaptchaSettingsInput } from '../../forms/captcha-settings-fields';
import type { RetentionPolicyView } from '../../forms/retention-policy';
import type { PluginSettingsInput } from '../../plugins/plugin-settings-fields';
import type { FieldDisplay, ListFilters } from '../../submissions/submission-display';
import type { TemporalUiLinks } from '../../submissions/temporal-ui';
import type { InvitationRow } from '../../../domain/accounts/invitations';
import type { MemberRow } from '../../../domain/accounts/memberships';
import type { MemberRole } from '../../../domain/accounts/member-roles';
import type { AccountContents } from '../../../domain/accounts/account-deletion';

/*
 * Every page template (`templates/<name>.eta`, partials excepted) and the data it takes: renderPage
 * and definePage's `render` accept only this data for that name, so a page cannot hand a
 * template the wrong data. The data is views (plain objects: src/http/forms/page-views.ts and the areas' *-view.ts),
 * never entities. The layout adds `title`, `chrome` and `nav` (render-page.ts).
 */

type FormatTime = typeof formatTime;
type AccountStatsView = Awaited<ReturnType<typeof accountStats>>;
type FormStatsView = Awaited<ReturnType<typeof formStats>>;
type Link = { href: string; label: string };

/** The chart data of stats pages (`data-series` of assets/stats-charts.js). */
export type ChartSeries = {
  dates: string[];
  submissions: number[];
  spam: number[];
  succeeded: number[];
  failed: number[];
  medianMs: (number | null)[];
  p95Ms: (number | null)[];
};

/** One page of a delivery log (submission-deliveries, plugin-deliveries). */
export type LogPage = { rows: AttemptRow[]; total: number; page: number; pages: number };

/** One audit log entry as /app/audit lists it (account/audit-pages.ts). */
export type AuditRowView = {
  time: Date;
  actor: string;
  actorType: string;
  clientAddress: string | null;
  action: string;
  target: { label: string; href: string | null } | null;
  summary: string;
};

/** An invitation offered to the signed-in user (invitation-offer-list.eta). */
export type InvitationOfferView = {
  id: string;
  /** Cut and on one line (shownAccountName), quoted as the inviter's words. */
  accountName: string;
  inviterEmail: string | null;
  role: string;
  expiresAt: Date;
};

/** One API key as the keys page lists it. */
export type KeyRow = {
  createdBy: string;
  id: string;
  name: string;
  access: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
};

/** The add-a-plugin form of a dashboard type as a person filled it in, with its errors. */
export type TypedPluginDraft = {
  type: string;
  name: string;
  /** The config fields as typed; secrets are never sent back to the browser. */
  values: Record<string, string>;
  errors: Record<string, string[]>;
};

/** One type's add form on the plugins page, from its declaration. */
export type PluginAddForm = { type: string; label: string; noun: string; fields: ConfigField[] };

/** One custom domain as /app/domains lists it (domains/domains-pages.ts). */
export type DomainRow = {
  domain: string;
  status: 'pending' | 'verified' | 'failing' | 'stopped';
  records: { type: string; name: string; value: string }[];
  /** The account's forms on it, with their slug (null: not served until it has one). */
  forms: { id: string; name: string; slug: string | null }[];
  lastCheckedAt: Date | null;
  servingUntil: Date | null;
  lastError: string | null;
};

/** What every section page of a form shows: the Form as the API reads it, and the navigation. */
export type FormSectionData = {
  form: FormView;
  sections: FormSectionLink[];
  lastSubmissionAt: Date | null;
  formatTime: typeof formatTime;
};

export type Templates = {
  message: { lines: readonly string[]; link?: Link; error?: boolean; heading?: string };
  overview: {
    stats: AccountStatsView;
    accountName: string;
    accountId: string;
    offers: InvitationOfferView[];
    formatTime: FormatTime;
  };
  invitations: { offers: InvitationOfferView[]; formatTime: FormatTime; error?: string };
  settings: { minPasswordLength: number; error?: string };
  team: {
    members: MemberRow[];
    invitations: InvitationRow[];
    isOwner: boolean;
    selfId: string;
    roleLabels: Record<MemberRole, string>;
    formatTime: FormatTime;
    form: { email?: string; role?: string };
    error?: string;
    /** What a removal or a lower role did to the member's API keys (shown once). */
    keyChange?: { member: string; revoked: number; kept: number };
  };
  'member-remove': { member: MemberRow; keys: KeyRow[]; formatTime: FormatTime };
  invite: {
    token: string;
    /** Cut and on one line (shownAccountName); quoted as the inviter's words, never a heading. */
    accountName: string;
    inviterEmail: string | null;
    email: string;
    role: string;
    minPasswordLength: number;
    error?: string;
  } & (
    | { mode: 'accept' | 'signup' }
    | { mode: 'other'; signedInAs: string; sessionCsrf: string }
    | { mode: 'signin'; loginHref: string }
  );
  'account-delete': { accountName: string; contents: AccountContents; error?: string };
  audit: {
    rows: AuditRowView[];
    filters: Record<'action' | 'actor' | 'target_type' | 'target_id' | 'since' | 'until', string>;
    error?: string;
    total: number;
    page: number;
    pages: number;
    pageHref: (page: number) => string;
    formatTime: FormatTime;
  };
  domains: {
    domains: DomainRow[];
    /** The account's forms, for "put a form on this domain". */
    allForms: { id: string; name: string }[];
    /** A refused placement: on which domain, why, and what was typed. */
    placement?: { domain: string; error: string; formId: string; slug: string };
    formatTime: FormatTime;
    max: number;
    form: { domain?: string };
    error?: string;
    notFound?: boolean;
    /** A change refused over a rate (API_WRITE_RATE, the DNS checks, the daily verifications). */
    limited?: string;
  };
  'api-keys': {
    keys: KeyRow[];
    formatTime: FormatTime;
    scopes: readonly Scope[];
    scopeLabels: Record<Scope, string>;
    roles: typeof ROLES;
    form: { name?: unknown; role?: unknown; scopes?: unknown };
    errors?: Record<string, string>;
    notFound?: boolean;
    /** A create refused over MAX_API_KEYS_PER_ACCOUNT: the reason. */
    limitReached?: string;
  };
  forms: {
    forms: { form: FormRef; counts: FormCounts }[];
    total: number;
    page: number;
    pages: number;
    formatTime: FormatTime;
  };
  'form-new': { input: FormSettingsInput; errors: FieldErrors; refusal: string | null };
  // A form's sections (form-sections.ts): each page has the heading and navigation.
  form: FormSectionData;
  'form-build': FormSectionData & { builder: BuilderView };
  'form-share': FormSectionData;
  'form-settings': FormSectionData & {
    input: FormSettingsInput;
    errors: FieldErrors;
    retention: RetentionPolicyView;
  };
  'form-spam': FormSectionData;
  'form-autoresponder': FormSectionData & { autoresponse: AutoresponseSection };
  'form-danger': FormSectionData;
  'form-test': {
    form: FormRef;
    submissionId?: string;
    deliveries?: TestDeliveryView[];
    spam?: { isSpam: boolean; reason: string | null };
    error?: string;
  };
  'form-delete': { form: FormRef; submissions: number; spam: number };
  'form-captcha': {
    form: FormRef;
    captcha: CaptchaView | null;
    input: CaptchaSettingsInput;
    error: string | null;
  };
  'form-stats': { form: FormRef; stats: FormStatsView; activity: Activity; series: ChartSeries };
  stats: {
    stats: AccountStatsView;
    activity: Activity;
    series: ChartSeries;
    forms: { form: FormRef; counts: FormCounts }[];
    moreForms: number;
  };
  submissions: {
    form: { id: string; name: string } | null;
    base: string;
    filters: ListFilters;
    ranges: typeof RANGES;
    rows: {
      id: string;
      formId: string;
      formToken: string;
      receivedAt: string;
      receivedLabel: string;
      sender: string;
      summary: string;
      spamReason: string | null;
    }[];
    total: number | null;
    page: number;
    cut: boolean;
    links: {
      inbox: string;
      /** Null for a member whose role does not read spam (a viewer). */
      spam: string | null;
      next: string | null;
      first: string | null;
      exportPreview: string | null;
    };
  };
  submission: {
    submission: SubmissionView;
    fields: FieldDisplay[];
    /** Why "not spam" was refused: the values break the form's rules, one line a field. */
    notSpamRefused?: string[];
    /** Its versions, when its submitter edited it (docs/manage-links.md), oldest first. */
    versions?: {
      total: number;
      shown: Array<{ version: number; status: string; createdAt: string; fields: FieldDisplay[] }>;
    };
  };
  'erase-sender': { email: string; count?: number; error?: string };
  'export-preview': {
    formId: string;
    columns: string[];
    rows: string[][];
    links: { csv: string; json: string; list: string };
  };
  'submission-deliveries': {
    submissionId: string;
    formId: string;
    isSpam: boolean;
    log: LogPage;
    temporal: TemporalUiLinks | null;
    workflowsUrl: string | undefined;
  };
  'plugin-deliveries': {
    form: FormRef;
    plugin: PluginRow;
    log: LogPage;
    temporal: TemporalUiLinks | null;
  };
  plugins: {
    form: FormRef;
    /** The form's section navigation (templates/form-sections.eta). */
    sections: FormSectionLink[];
    plugins: PluginRow[];
    recipientsOf: (plugin: PluginRow) => RecipientStatus[] | undefined;
    typed: TypedPluginDraft;
    /** The add form of every type (the registry's declarations). */
    addForms: PluginAddForm[];
    headers: Record<string, string>;
    formatTime: FormatTime;
  };
  'plugin-settings': {
    form: FormRef;
    plugin: PluginRow;
    action: string;
    /** The type sends headers of its own (webhooks), and the viewer may see them. */
    hasHeaders: boolean;
    ops: readonly string[];
    /** The form's field list and the names its recent submissions used. */
    fieldNames: string[];
    input: PluginSettingsInput;
    errors: string[];
    /**
     * Of the form's last 100 non-spam submissions, how many would be sent, of how many judged
     * (`skipped`: too large to judge); null on errors.
     */
    dryRun: { sent: number; of: number; skipped: number } | null;
    dryRunOf: 'typed' | 'saved';
  };
  'plugin-recover': {
    form: FormRef;
    plugin: PluginRow;
    base: string;
    since: string;
    error: string | null;
    runningHref: string | null;
    runs: RecoveryRow[];
    formatTime: FormatTime;
  };
  'plugin-recovery': {
    form: FormRef;
    plugin: PluginRow;
    base: string;
    run: RecoveryRow;
    formatTime: FormatTime;
  };
  'dev-mailbox': { entries: MailboxEntry[]; directory: string };
  'dev-mailbox-message': { subject: string; to: string; text: string; links: string[] };
  // The signed-out pages (account/sign-in-pages.ts, sign-up-pages.ts, password-reset-pages.ts; plugins/recipients-pages.ts).
  home: Record<string, never>;
  /** `sso`: the label of the single sign-on button, when it is configured. */
  login: {
    next?: string | null;
    email?: string;
    error?: string;
    unconfirmed?: boolean;
    sso?: string;
  };
  signup: {
    minPasswordLength: number;
    email?: string;
    name?: string;
    error?: string;
    sso?: string;
  };
  forgot: { error?: string };
  reset: { minPasswordLength: number; token?: string; error?: string };
  'recipient-action': {
    lines: readonly string[];
    action: string;
    button: string;
    oneClick?: boolean;
    error?: boolean;
  };
};

export type TemplateName = keyof Templates;
