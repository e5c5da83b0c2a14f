import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../src/domain/concurrency/semaphore';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, all of them in the end, in arrival order', async () => {
    const semaphore = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        semaphore.run(async () => {
          started.push(i);
          running += 1;
          peak = Math.max(peak, running);
          await tick();
          running -= 1;
          return i * 2;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(results).toEqual(Array.from({ length: 10 }, (_, i) => i * 2));
    expect(started).toEqual([...started].sort((a, b) => a - b));
    expect(semaphore.load).toEqual({ running: 0, waiting: 0 });
  });

  it('a failing task frees its slot and passes its error on', async () => {
    const semaphore = new Semaphore(1);
    await expect(semaphore.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await semaphore.run(async () => 'next')).toBe('next');
    expect(semaphore.load).toEqual({ running: 0, waiting: 0 });
  });

  it('resize: growing starts waiting tasks at once, shrinking holds new ones back', async () => {
    const semaphore = new Semaphore(1);
    const gates: Array<() => void> = [];
    const task = () => semaphore.run(() => new Promise<void>((resolve) => gates.push(resolve)));
    const all = [task(), task(), task()];
    await tick();
    expect(semaphore.load).toEqual({ running: 1, waiting: 2 });
    semaphore.resize(3);
    await tick();
    expect(semaphore.load).toEqual({ running: 3, waiting: 0 });
    semaphore.resize(1);
    const late = task();
    gates.splice(0).forEach((open) => open());
    await Promise.all(all);
    await tick();
    expect(semaphore.load).toEqual({ running: 1, waiting: 0 });
    gates.splice(0).forEach((open) => open());
    await late;
    expect(semaphore.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a limit below 1', () => {
    expect(() => new Semaphore(0)).toThrow();
    expect(() => new Semaphore(1.5)).toThrow();
  });
});
