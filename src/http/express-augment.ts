import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../domain/accounts/principal';

// Every request gets its own EntityManager fork; authenticated ones also carry who is calling.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      em: EntityManager;
      principal?: Principal;
    }
    interface Locals {
      /**
       * Set by host routing on a custom domain (`/{slug}`): where the form's page, thanks
       * page and assets are, same-origin (docs/custom-domains.md).
       */
      formPageBase?: string;
    }
  }
}

export {};
