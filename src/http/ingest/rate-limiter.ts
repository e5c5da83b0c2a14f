import type { Request } from 'express';
import { HttpError } from '../kit/errors/http-error';
import type { RouteContext } from '../kit/routing/define-route';

/**
 * Fixed one-minute windows per key, each allowing `perMinute` units (posts, or bytes). In
 * memory: each serve process limits on its own, which is what a per-instance abuse brake needs.
 */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  private lastSweep = Date.now();

  constructor(private readonly perMinute: number) {}

  /** Counts `amount` units for `key`; seconds to wait when that passes the limit, else 0. */
  hit(key: string, amount = 1, now = Date.now()): number {
    if (this.perMinute <= 0) return 0;
    if (now - this.lastSweep > 60_000) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || now - window.start >= 60_000) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += amount;
    if (window.count <= this.perMinute) return 0;
    return Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
  }

  private sweep(now: number) {
    this.lastSweep = now;
    for (const [key, window] of this.windows)
      if (now - window.start >= 60_000) this.windows.delete(key);
  }
}

const rateLimited = (message: string, wait: number) =>
  new HttpError('rate_limited', message, undefined, { 'Retry-After': String(wait) });

/**
 * The ingest limits of docs/api-conventions.md, Limits: posts per client and form
 * (INGEST_RATE_LIMIT), request bytes per client across forms (INGEST_RATE_LIMIT_BYTES), and
 * hosted page views per client across forms (FORM_PAGE_RATE), and manage-link requests per
 * client (MANAGE_LINK_RATE). A client is what
 * rateLimitSubject makes of its address.
 */
export class IngestRateLimits {
  private readonly posts: RateLimiter;
  private readonly challenges: RateLimiter;
  private readonly bytes: RateLimiter;
  private readonly pageViews: RateLimiter;
  private readonly manageLinks: RateLimiter;

  constructor(limits: {
    postsPerMinute: number;
    bytesPerMinute: number;
    pagesPerMinute: number;
    /** MANAGE_LINK_RATE; off when not given. */
    manageLinksPerMinute?: number;
  }) {
    this.posts = new RateLimiter(limits.postsPerMinute);
    this.challenges = new RateLimiter(limits.postsPerMinute);
    this.bytes = new RateLimiter(limits.bytesPerMinute);
    this.pageViews = new RateLimiter(limits.pagesPerMinute);
    this.manageLinks = new RateLimiter(limits.manageLinksPerMinute ?? 0);
  }

  /**
   * Counts one request of `subject` to a manage link (docs/manage-links.md), whatever the
   * submission: guessing links costs the same budget as using them. 429 past it.
   */
  countManageLink(subject: string): void {
    const wait = this.manageLinks.hit(subject);
    if (wait > 0)
      throw rateLimited(
        'too many requests to submission links from your network; try again shortly',
        wait,
      );
  }

  /** Counts one hosted page GET of `subject`, whatever the form; 429 `rate_limited` past it. */
  countPageView(subject: string): void {
    const wait = this.pageViews.hit(subject);
    if (wait > 0)
      throw rateLimited('too many form pages opened from your network; try again shortly', wait);
  }

  /**
   * Counts one ALTCHA challenge of `subject` for `formId`, as many allowed as posts (one per
   * submission), counted apart so fetching challenges never uses up the posts.
   */
  countChallenge(subject: string, formId: string): void {
    const wait = this.challenges.hit(`${subject}|${formId}`);
    if (wait > 0) throw rateLimited('too many CAPTCHA challenges; try again shortly', wait);
  }

  /** Counts one post of `subject` to `formId`; throws 429 `rate_limited` past the limit. */
  countPost(subject: string, formId: string): void {
    const wait = this.posts.hit(`${subject}|${formId}`);
    if (wait > 0) throw rateLimited('too many submissions; try again shortly', wait);
  }

  /** Counts `bytes` received from `subject`; throws 429 `rate_limited` past the byte budget. */
  countBytes(subject: string, bytes: number): void {
    const wait = this.bytes.hit(subject, bytes);
    if (wait > 0) throw rateLimited('too many bytes submitted; try again shortly', wait);
  }

  /**
   * Charges the request's body: its Content-Length now, before anything is read; without
   * one, the returned meter is to be called with each chunk's size as it arrives.
   */
  countBody(req: Request, subject: string): ((bytes: number) => void) | undefined {
    const declared = req.headers['content-length'];
    if (declared !== undefined && /^\d+$/.test(declared)) {
      this.countBytes(subject, Number(declared));
      return undefined;
    }
    return (bytes) => this.countBytes(subject, bytes);
  }
}

/** One set of in-memory limits per running server (its context). */
const limits = new WeakMap<RouteContext, IngestRateLimits>();
export function limitsOf(ctx: RouteContext): IngestRateLimits {
  let found = limits.get(ctx);
  if (!found) {
    found = new IngestRateLimits({
      postsPerMinute: ctx.config.ingestRateLimitPerMinute,
      bytesPerMinute: ctx.config.ingestRateLimitBytesPerMinute,
      pagesPerMinute: ctx.config.formPageRatePerMinute,
      manageLinksPerMinute: ctx.config.manageLinkRatePerMinute,
    });
    limits.set(ctx, found);
  }
  return found;
}
