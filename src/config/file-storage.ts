import { z } from 'zod';

/** Where uploaded files are kept: PostgreSQL (the embedded default) or an S3 bucket. */
export type FileStorageConfig =
  | { kind: 'postgres' }
  | {
      kind: 's3';
      bucket: string;
      /** Prepended to every object key; empty or ending in `/`. */
      prefix: string;
      /** An S3-compatible server's URL; absent: AWS S3 itself. */
      endpoint?: string;
      region: string;
      forcePathStyle: boolean;
      /** From AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY; absent: the SDK's default chain. */
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
      /** The location for messages and logs, never with credentials. */
      display: string;
    };

const QUERY_KEYS = ['endpoint', 'region', 'force_path_style'];

/**
 * Reads `FILE_STORAGE_URL`: `s3://bucket[/prefix]?endpoint=https://host:port&region=…&force_path_style=true`
 * (docs/running.md, File storage). Problems are reported on `ctx`; credentials never come from
 * the URL, so it can be logged.
 */
function parseFileStorage(
  url: string | undefined,
  env: { accessKeyId?: string; secretAccessKey?: string; sessionToken?: string },
  ctx: z.RefinementCtx,
): FileStorageConfig {
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', path: ['FILE_STORAGE_URL'], message });
    return z.NEVER;
  };
  if (!url || url === 'postgres') return { kind: 'postgres' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('not a URL; use s3://bucket[/prefix]?endpoint=…&region=… or leave it empty');
  }
  if (parsed.protocol !== 's3:') return fail(`unsupported scheme ${parsed.protocol} (use s3://)`);
  if (parsed.username || parsed.password)
    return fail('put no credentials in the URL; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  const bucket = parsed.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    return fail(`"${bucket}" is not a valid bucket name`);
  const unknown = [...parsed.searchParams.keys()].filter((key) => !QUERY_KEYS.includes(key));
  if (unknown.length > 0)
    return fail(`unknown parameter(s) ${unknown.join(', ')}; known: ${QUERY_KEYS.join(', ')}`);
  const endpoint = parsed.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined) {
    const target = URL.canParse(endpoint) ? new URL(endpoint) : null;
    if (!target || !['http:', 'https:'].includes(target.protocol) || target.username)
      return fail('endpoint must be an http(s) URL without credentials');
  }
  const pathStyle = parsed.searchParams.get('force_path_style') ?? 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false')
    return fail('force_path_style must be true or false');
  if (Boolean(env.accessKeyId) !== Boolean(env.secretAccessKey))
    return fail('set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither');
  const path = decodeURIComponent(parsed.pathname).replace(/^\/+/, '');
  const prefix = path === '' || path.endsWith('/') ? path : `${path}/`;
  return {
    kind: 's3',
    bucket,
    prefix,
    endpoint,
    region: parsed.searchParams.get('region') ?? 'us-east-1',
    forcePathStyle: pathStyle === 'true',
    credentials:
      env.accessKeyId && env.secretAccessKey
        ? {
            accessKeyId: env.accessKeyId,
            secretAccessKey: env.secretAccessKey,
            sessionToken: env.sessionToken,
          }
        : undefined,
    display: `s3://${bucket}/${prefix}${endpoint ? ` at ${endpoint}` : ''}`,
  };
}

const optional = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : undefined));

/** FILE_STORAGE_URL and the standard AWS credential variables, read into a FileStorageConfig. */
export const fileStorageEnvironment = z
  .object({
    FILE_STORAGE_URL: optional,
    AWS_ACCESS_KEY_ID: optional,
    AWS_SECRET_ACCESS_KEY: optional,
    AWS_SESSION_TOKEN: optional,
  })
  .transform((e, ctx) =>
    parseFileStorage(
      e.FILE_STORAGE_URL,
      {
        accessKeyId: e.AWS_ACCESS_KEY_ID,
        secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
        sessionToken: e.AWS_SESSION_TOKEN,
      },
      ctx,
    ),
  );
