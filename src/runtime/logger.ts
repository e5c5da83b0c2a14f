import pino, { type Logger } from 'pino';

/** Structured JSON logs on stderr, so stdout stays free for CLI output. */
export function createLogger(level: string, name = 'formward'): Logger {
  return pino({ name, level }, pino.destination(2));
}
