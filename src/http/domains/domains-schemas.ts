import { z } from 'zod';

export const createDomainBody = z
  .object({
    domain: z
      .string({ error: 'is required, e.g. forms.example.com' })
      .max(253)
      .describe('the domain to serve form pages on, e.g. forms.example.com (no scheme or path)'),
  })
  .meta({ id: 'CreateDomain' });
