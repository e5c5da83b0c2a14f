/**
 * Fixed one-minute windows per key (client IPv4 address or IPv6 /64, and form). In memory: each serve process
 * limits on its own, which is what a per-instance abuse brake needs.
 */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  private lastSweep = Date.now();

  constructor(private readonly perMinute: number) {}

  /** Seconds to wait when over the limit, else 0. */
  hit(key: string, now = Date.now()): number {
    if (this.perMinute <= 0) return 0;
    if (now - this.lastSweep > 60_000) this.sweep(now);
    const window = this.windows.get(key);
    if (!window || now - window.start >= 60_000) {
      this.windows.set(key, { start: now, count: 1 });
      return 0;
    }
    window.count++;
    if (window.count <= this.perMinute) return 0;
    return Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
  }

  private sweep(now: number) {
    this.lastSweep = now;
    for (const [key, window] of this.windows)
      if (now - window.start >= 60_000) this.windows.delete(key);
  }
}
