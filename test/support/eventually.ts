/**
 * Calls `probe` until it returns a truthy value (errors count as "not yet") and returns it;
 * throws with the last error or value after `timeoutMs`.
 */
export async function eventually<T>(
  probe: () => Promise<T | null | undefined | false>,
  { timeoutMs = 20_000, intervalMs = 250, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`${what} not reached within ${timeoutMs} ms (last: ${detail})`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
