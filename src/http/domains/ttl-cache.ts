/**
 * A small in-process cache of promises with a time to live and a size cap: concurrent
 * requests for one key share one computation, and a failed one is not kept. (The lru-cache
 * in node_modules is an old major that other packages pin, so it is not used here.)
 */
export class TtlCache<V> {
  private entries = new Map<string, { value: Promise<V>; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, compute: () => Promise<V>, now = Date.now()): Promise<V> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > now) return entry.value;
    if (entry) this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.dropExpiredOrOldest(now);
    const value = compute();
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  private dropExpiredOrOldest(now: number) {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    // Maps iterate in insertion order: the first key is the oldest.
    if (this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value!);
  }
}
