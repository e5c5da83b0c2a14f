import { createHash } from 'node:crypto';
import type { Response } from 'express';
import type { StoredCaptcha } from '../../domain/captcha/captcha-settings';
import { RECAPTCHA_V3_SCRIPT } from './captcha-widget';
import { FILL_STAMP_SCRIPT } from '../forms/embed-html';

type Directive = 'script' | 'style' | 'frame' | 'connect' | 'worker';

/**
 * What each CAPTCHA provider's widget loads, as its documentation lists it. ALTCHA's script
 * is ours, same-origin; its proof of work runs in workers made from blob: (or data:) URLs.
 */
const PROVIDER_SOURCES: Record<StoredCaptcha['provider'], Partial<Record<Directive, string[]>>> = {
  altcha: { worker: ['blob:', 'data:'] },
  turnstile: {
    script: ['https://challenges.cloudflare.com'],
    frame: ['https://challenges.cloudflare.com'],
    connect: ['https://challenges.cloudflare.com'],
  },
  hcaptcha: {
    script: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    frame: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    style: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    connect: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  },
  recaptcha: {
    script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
    frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
    connect: ['https://www.google.com/recaptcha/'],
  },
};

/** The hash source of one of our inline scripts (a constant, never built from input). */
const scriptHash = (tag: string) =>
  `'sha256-${createHash('sha256')
    .update(tag.replace(/^<script>/, '').replace(/<\/script>$/, ''))
    .digest('base64')}'`;

const FILL_STAMP_HASH = scriptHash(FILL_STAMP_SCRIPT);
const RECAPTCHA_V3_HASH = scriptHash(RECAPTCHA_V3_SCRIPT);

/**
 * The Content-Security-Policy of a hosted page, in place of the ingest default (which runs
 * no script): our two inline scripts by hash, same-origin scripts and fetches (ALTCHA's
 * widget and challenges), the form's CAPTCHA provider and nothing else. Inline styles stay
 * allowed as on every ingest page. Chromium checks `form-action` on the redirect after a
 * post too, so the form's `success_redirect_url` origin is allowed there.
 */
export function formPageCsp(
  captcha: StoredCaptcha | null | undefined,
  successRedirectUrl: string | null | undefined,
) {
  const provider = captcha ? PROVIDER_SOURCES[captcha.provider] : {};
  const v3 = captcha?.provider === 'recaptcha' && captcha.minScore !== undefined;
  const list = (directive: Directive, ...own: string[]) => [...own, ...(provider[directive] ?? [])];
  const directives: [string, string[]][] = [
    ['default-src', ["'none'"]],
    ['script-src', list('script', "'self'", FILL_STAMP_HASH, ...(v3 ? [RECAPTCHA_V3_HASH] : []))],
    ['style-src', list('style', "'self'", "'unsafe-inline'")],
    ['img-src', ["'self'", 'data:']],
    ['connect-src', list('connect', "'self'")],
    ['frame-src', list('frame')],
    ['worker-src', list('worker')],
    [
      'form-action',
      ["'self'", ...(successRedirectUrl ? [new URL(successRedirectUrl).origin] : [])],
    ],
    ['frame-ancestors', ["'none'"]],
    ['base-uri', ["'none'"]],
  ];
  return directives
    .filter(([, sources]) => sources.length > 0)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/**
 * Sets a hosted page's headers on an answer: its CSP, and `Referrer-Policy: same-origin` in
 * place of `no-referrer`, so the page's post carries its `Origin` (a form with
 * `allowed_domains` checks it) while nothing leaves for other sites.
 */
export function setFormPageHeaders(
  res: Response,
  form: { captcha?: StoredCaptcha | null; successRedirectUrl?: string | null },
): void {
  res.setHeader('Content-Security-Policy', formPageCsp(form.captcha, form.successRedirectUrl));
  res.setHeader('Referrer-Policy', 'same-origin');
}
