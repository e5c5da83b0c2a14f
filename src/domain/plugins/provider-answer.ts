import { SECRET_MASK } from './plugin-secrets';

/*
 * A third-party API's answer to a delivery (Airtable, Notion): what the delivery log says of
 * it and whether a retry could help. Nothing stored of it may hold the plugin's token.
 */

export type AnswerReading = { error: string; permanent: boolean };

/** `text` with every occurrence of `secret` masked: an API echoing the token stores nothing. */
export function withoutSecret(text: string | null, secret: string): string | null {
  if (text === null || secret.length < 8) return text;
  return text.split(secret).join(SECRET_MASK);
}
