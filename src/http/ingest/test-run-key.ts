import type { Request } from 'express';
import { can } from '../../domain/accounts/principal';
import type { IngestForm } from '../../domain/forms/form-cache';
import { HttpError } from '../kit/errors/http-error';
import { bearerKeyPrincipal } from '../kit/middleware/authenticate';

/**
 * `?test=true` runs real deliveries synchronously, so it needs the form account's key with
 * `can_create_forms` (docs/api-conventions.md, Ingest); the form token alone is public.
 */
export async function requireTestRunKey(req: Request, form: IngestForm): Promise<void> {
  const principal = await bearerKeyPrincipal(req);
  if (!principal) {
    throw new HttpError(
      'unauthorized',
      '?test=true needs "Authorization: Bearer <API_KEY>" with can_create_forms',
    );
  }
  if (principal.accountId !== form.accountId || !can(principal, 'can_create_forms')) {
    throw new HttpError(
      'forbidden',
      "?test=true needs a key of the form's account with can_create_forms",
    );
  }
}
