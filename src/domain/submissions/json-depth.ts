/**
 * How deep a JSON field value may nest (arrays and objects inside one another). Deeper
 * values are refused at ingest, before anything walks them recursively (JSON.stringify,
 * PostgreSQL's jsonb parser, the webhook body, the dashboard) and overflows a stack.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * True when `value` nests arrays or objects more than `maxDepth` levels deep (a scalar is
 * level 0, `[1]` level 1). Walks with its own stack, so any depth is measured safely.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (item.value === null || typeof item.value !== 'object') continue;
    const depth = item.depth + 1;
    if (depth > maxDepth) return true;
    const children = Array.isArray(item.value) ? item.value : Object.values(item.value);
    for (const child of children) pending.push({ value: child, depth });
  }
  return false;
}
