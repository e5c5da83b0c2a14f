/**
 * At most `limit` tasks run at once; the others wait in arrival order. A small counting
 * semaphore: password hashing (libuv's pool) and uploads written into PostgreSQL (the
 * connection pool) use it, so a burst of callers cannot take every thread or connection.
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private limit: number) {
    Semaphore.check(limit);
  }

  /** Changes the bound; waiting tasks start at once when it grows. */
  resize(limit: number): void {
    Semaphore.check(limit);
    this.limit = limit;
    while (this.running < this.limit && this.waiting.length > 0) this.startNext();
  }

  /** Tasks running and tasks waiting now (for tests and metrics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Hands the slot to the next waiter (running stays the same), or frees it. */
  private release() {
    if (this.waiting.length > 0 && this.running <= this.limit) this.waiting.shift()!();
    else this.running -= 1;
  }

  private startNext() {
    this.running += 1;
    this.waiting.shift()!();
  }

  private static check(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('the limit must be at least 1');
  }
}
