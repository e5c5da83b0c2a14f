import { Migration } from '@mikro-orm/migrations';

/** The first schema: accounts, auth, forms, submissions (with full-text search), plugins, deliveries. */
export class Migration20261122000000Initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table accounts (
        id bigserial primary key,
        name text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      create table users (
        id bigserial primary key,
        account_id bigint not null references accounts (id) on delete cascade,
        email text not null,
        name text,
        password_hash text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index users_email_unique on users (lower(email));
      create index users_account_idx on users (account_id);

      create table api_keys (
        id bigserial primary key,
        account_id bigint not null references accounts (id) on delete cascade,
        name text not null,
        prefix text not null,
        key_hash text not null,
        scopes text[] not null,
        role text,
        last_used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz not null default now()
      );
      create unique index api_keys_hash_unique on api_keys (key_hash);
      create index api_keys_account_idx on api_keys (account_id);

      create table sessions (
        id bigserial primary key,
        user_id bigint not null references users (id) on delete cascade,
        account_id bigint not null references accounts (id) on delete cascade,
        token_hash text not null,
        csrf_token text not null,
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      );
      create unique index sessions_token_unique on sessions (token_hash);
      create index sessions_expiry_idx on sessions (expires_at);

      create table forms (
        id bigserial primary key,
        account_id bigint not null references accounts (id) on delete cascade,
        name text not null,
        endpoint_token text not null,
        success_redirect_url text,
        is_active boolean not null default true,
        allowed_domains text[] not null default '{}',
        notification_email_addresses text[] not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index forms_endpoint_token_unique on forms (endpoint_token);
      create index forms_account_created_idx on forms (account_id, created_at desc, id desc);

      create table submissions (
        id bigserial primary key,
        form_id bigint not null references forms (id) on delete cascade,
        account_id bigint not null references accounts (id) on delete cascade,
        payload_json jsonb not null,
        special_normalized jsonb,
        source_ip text,
        user_agent text,
        referrer text,
        is_spam boolean not null default false,
        spam_reason text,
        spam_checked_at timestamptz,
        workflow_started_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        search_vector tsvector generated always as
          (jsonb_to_tsvector('simple'::regconfig, payload_json, '["string", "numeric"]')) stored
      );
      create index submissions_account_list_idx on submissions (account_id, is_spam, created_at desc, id desc);
      create index submissions_form_list_idx on submissions (form_id, is_spam, created_at desc, id desc);
      create index submissions_search_idx on submissions using gin (search_vector);
      create index submissions_unstarted_idx on submissions (id) where workflow_started_at is null;
      create index submissions_spam_reason_idx on submissions (spam_reason) where is_spam;

      create table submission_files (
        id bigserial primary key,
        submission_id bigint not null references submissions (id) on delete cascade,
        field_name text not null,
        filename text not null,
        content_type text not null,
        size integer not null,
        content bytea not null,
        created_at timestamptz not null default now()
      );
      create index submission_files_submission_idx on submission_files (submission_id);

      create table plugins (
        id bigserial primary key,
        form_id bigint not null references forms (id) on delete cascade,
        plugin_type text not null,
        name text not null,
        enabled boolean not null default true,
        config jsonb not null default '{}',
        signing_secret text,
        deleted_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index plugins_form_idx on plugins (form_id) where deleted_at is null;

      create table delivery_attempts (
        id bigserial primary key,
        delivery_id text not null,
        submission_id bigint not null references submissions (id) on delete cascade,
        plugin_id bigint not null references plugins (id) on delete cascade,
        attempt integer not null,
        status text not null check (status in ('succeeded', 'failed', 'pending_retry')),
        http_status integer,
        error text,
        duration_ms integer,
        response_body text,
        is_replay boolean not null default false,
        is_test boolean not null default false,
        workflow_id text,
        workflow_run_id text,
        started_at timestamptz not null,
        finished_at timestamptz,
        created_at timestamptz not null default now()
      );
      create unique index delivery_attempts_unique on delivery_attempts (delivery_id, attempt);
      create index delivery_attempts_submission_idx on delivery_attempts (submission_id, created_at desc);
      create index delivery_attempts_plugin_idx on delivery_attempts (plugin_id, created_at desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table if exists delivery_attempts, plugins, submission_files, submissions, forms,
        sessions, api_keys, users, accounts cascade;
    `);
  }
}
