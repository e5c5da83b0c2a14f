import net from 'node:net';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A TCP port nobody listens on right now, chosen by the kernel. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The p-th percentile (0..100) of `values`, nearest-rank; 0 for an empty list. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** Keeps the last `max` lines written to it (a child's output, for error messages). */
export class Tail {
  private lines: string[] = [];
  constructor(private readonly max = 60) {}
  push(chunk: string): void {
    this.lines.push(...chunk.split('\n').filter((line) => line.trim() !== ''));
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  }
  toString(): string {
    return this.lines.join('\n');
  }
}
