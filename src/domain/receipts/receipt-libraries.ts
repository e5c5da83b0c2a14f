import type * as Jose from 'jose' with { 'resolution-mode': 'import' };
import type * as Canonicalize from 'canonicalize' with { 'resolution-mode': 'import' };

/** jose (JWS, JWK) and canonicalize (RFC 8785), both ES modules only: loaded once, on first use. */
export type ReceiptLibraries = { jose: typeof Jose; canonicalize: typeof Canonicalize.default };

let loaded: Promise<ReceiptLibraries> | null = null;

export function receiptLibraries(): Promise<ReceiptLibraries> {
  loaded ??= Promise.all([import('jose'), import('canonicalize')]).then(([jose, json]) => ({
    jose,
    canonicalize: json.default,
  }));
  return loaded;
}
