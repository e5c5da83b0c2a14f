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
  }
}

export {};
