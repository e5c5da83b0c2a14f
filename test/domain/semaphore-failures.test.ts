import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../src/domain/concurrency/semaphore';

describe('Semaphore as the upload write slots', () => {
  it('runs at most `size` holders at once, the rest in arrival order, and frees slots on failure', async () => {
    const slots = new Semaphore(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const work = (n: number, fail = false) =>
      slots.run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        order.push(n);
        if (fail) throw new Error(`work ${n} failed`);
        return n;
      });
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((n) => work(n, n === 1)));
    expect(most).toBe(2);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(order.slice(2)).toEqual([2, 3, 4, 5]);
    expect(await work(6)).toBe(6);
  });
});
