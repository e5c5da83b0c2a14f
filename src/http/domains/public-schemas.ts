import { z } from 'zod';

export const verifyDomainQuery = z.object({
  domain: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(253)
    .describe('the custom form-page domain to check, e.g. forms.example.com'),
});
