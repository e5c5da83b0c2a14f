import type { z } from 'zod';
import { validationFailed } from '../errors/http-error';

/** Parses input with a zod schema; failures become 422 `validation_failed` with `field: problem` lines. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where?: string,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : (where ?? 'body');
    return `${field}: ${issue.message}`;
  });
  throw validationFailed(errors);
}
