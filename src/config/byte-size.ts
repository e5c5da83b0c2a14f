const UNITS: Record<string, number> = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/**
 * Parses the sizes our environment accepts: `512B`, `10KiB`, `25MiB`, `1.5GiB`, `1T` (binary
 * multiples whether written K, KB or KiB; a bare number means bytes).
 */
export function parseByteSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:([kmgt])(?:i?b)?|b)?\s*$/i.exec(text);
  if (!match) throw new Error(`invalid size "${text}" (use e.g. 512KiB, 25MiB, 1GiB)`);
  const factor = UNITS[(match[2] ?? 'b').toLowerCase()]!;
  return Math.round(Number(match[1]) * factor);
}

/** A byte count as people read it in a message: `10 KiB`, `1.5 GiB`, `512 B`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}
