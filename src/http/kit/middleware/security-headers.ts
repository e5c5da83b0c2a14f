import type { Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Our pages load nothing from elsewhere and run no script; they have inline styles and post
 * forms to us. A route with a stricter policy (/docs, file downloads) sets its own header,
 * which replaces this one.
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  styleSrc: ["'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

/**
 * The dashboard's pages (docs/dashboard.md): our own scripts (htmx, the ALTCHA widget and
 * its proof-of-work workers) and stylesheets, fetches back to us, and nothing inline.
 */
const DASHBOARD_CSP_DIRECTIVES = {
  ...CSP_DIRECTIVES,
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
};

/** Sets the dashboard's policy on a page answer, replacing the default one. */
export const dashboardCsp = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: DASHBOARD_CSP_DIRECTIVES,
});

/**
 * The headers every answer carries (pages, JSON, errors, 404s), through helmet: no framing,
 * no MIME sniffing, no Referer leaving our pages, and HSTS when the public URL is HTTPS. No
 * Cross-Origin-Resource-Policy: customer sites load `/f/{token}/autocomplete.js` cross-origin.
 */
export function securityHeaders(baseUrl: string): RequestHandler {
  return presetHeaders(helmet(helmetOptions(baseUrl)));
}

export const helmetOptions = (baseUrl: string): HelmetOptions => ({
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  crossOriginResourcePolicy: false,
  strictTransportSecurity: baseUrl.startsWith('https://') ? { maxAge: 31_536_000 } : false,
});

/**
 * helmet's headers depend on its options only, never on the request: they are read once, from
 * helmet itself, and each answer gets them in one pass instead of through its dozen small
 * middlewares (every answer pays for those; an ingest answer is a millisecond of work).
 */
function presetHeaders(middleware: RequestHandler): RequestHandler {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: string) => void headers.push([name, value]),
    removeHeader: () => undefined,
  };
  let done = false;
  void middleware({} as Request, recorder as unknown as Response, () => (done = true));
  if (!done) throw new Error('helmet did not run through');
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
