import type { RequestHandler } from 'express';

/**
 * Our pages load nothing from elsewhere and run no script; they have inline styles and post
 * forms to us. A route with a stricter policy (/docs, file downloads) sets its own header,
 * which replaces this one.
 */
export const DEFAULT_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The headers every answer carries (pages, JSON, errors, 404s): no framing, no MIME sniffing,
 * no Referer leaving our pages, and HSTS when the public URL is HTTPS. Not a Cross-Origin-
 * Resource-Policy: customer sites load `/f/{token}/autocomplete.js` cross-origin.
 */
export function securityHeaders(baseUrl: string): RequestHandler {
  const https = baseUrl.startsWith('https://');
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', DEFAULT_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    if (https) res.setHeader('Strict-Transport-Security', 'max-age=31536000');
    next();
  };
}
