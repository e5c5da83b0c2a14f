/**
 * An in-process cache bounded by bytes, not entries: each value is stored with its size (as
 * the caller estimates it), and the least recently used go when the sum would pass
 * `maxBytes`. With `ttlMs`, an entry older than that is a miss, and expired entries are swept
 * out on an insert at most once per `ttlMs`, so distinct keys never pile up. A value larger
 * than the whole cap is not kept. (The lru-cache in node_modules is an old major that other
 * packages pin, so it is not used here.)
 */
export class ByteLruCache<V> {
  // Maps iterate in insertion order: a hit moves its entry to the end, so the first is the
  // least recently used.
  private readonly entries = new Map<string, { value: V; bytes: number; expires: number }>();
  private total = 0;
  private lastSweep: number;

  constructor(
    private readonly options: {
      maxBytes: number;
      /** Unset: entries never expire (only the cap removes them). */
      ttlMs?: number;
      now?: () => number;
    },
  ) {
    this.lastSweep = this.now();
  }

  /** The bytes of the entries kept (expired ones not swept yet included). */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  get maxBytes(): number {
    return this.options.maxBytes;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    const now = this.now();
    const ttl = this.options.ttlMs;
    if (ttl !== undefined && now - this.lastSweep >= ttl) this.sweep(now);
    if (bytes > this.options.maxBytes) return;
    for (const [oldest] of this.entries) {
      if (this.total + bytes <= this.options.maxBytes) break;
      this.delete(oldest);
    }
    this.entries.set(key, { value, bytes, expires: ttl === undefined ? Infinity : now + ttl });
    this.total += bytes;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  private sweep(now: number) {
    this.lastSweep = now;
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.delete(key);
  }

  private now() {
    return (this.options.now ?? Date.now)();
  }
}
