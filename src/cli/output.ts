/** Commands that create things print exactly one JSON object on stdout (docs/running.md). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Everything else a command says goes to stderr. */
export function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

export class UsageError extends Error {}
