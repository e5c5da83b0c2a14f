import { z } from 'zod';

/*
 * Field shapes shared by the response schemas of the areas' views (src/http/<area>/*-view.ts).
 * Answers are encoded through those schemas, so these describe what is sent; clients must
 * ignore fields they do not know.
 */

export const dateTime = (description: string) =>
  z.string().meta({ format: 'date-time', description });

export const count = (description: string) => z.number().int().min(0).describe(description);

export const idString = (description: string) => z.string().meta({ description, examples: ['42'] });
