/** Rows of cells as aligned columns: the first `left` left-aligned, the others right-aligned. */
export function table(rows: string[][], left = 1): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) => r.map((cell, i) => (i < left ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))))
    .map((r) => r.join('  '))
    .join('\n');
}

/** CPU cores by part, busiest first: `postgres 0.8, formward 0.5`. */
export const cores = (c: Record<string, number>) =>
  Object.entries(c)
    .sort((a, b) => b[1] - a[1])
    .map(([part, n]) => `${part} ${n}`)
    .join(', ');

/** `200:1000 500:2` */
export const statuses = (codes: Record<string, number>) =>
  Object.entries(codes)
    .map(([code, n]) => `${code}:${n}`)
    .join(' ');
