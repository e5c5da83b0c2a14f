import { z } from 'zod';

export const verifyDomainQuery = z.object({
  domain: z.string({ error: 'is required' }).trim().min(1, 'is required').max(253),
});
