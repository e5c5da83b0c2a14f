import { z } from 'zod';

/**
 * A string PostgreSQL can store: its text and jsonb types refuse the NUL character, so it
 * is refused here with a clear message rather than failing later as a database error.
 */
export const text = () =>
  z.string().refine((value) => !value.includes('\0'), 'must not contain NUL characters');
