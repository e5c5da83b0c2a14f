/**
 * At most `size` holders at once; the rest wait in arrival order. Bounds how many uploads
 * write their files into PostgreSQL at a time, so they never take the whole connection
 * pool from the other requests (UPLOAD_WRITE_CONCURRENCY).
 */
export class WriteSlots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /** Runs `work` in a slot, waiting for one first. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // A waiting holder takes the slot over, or it becomes free.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
