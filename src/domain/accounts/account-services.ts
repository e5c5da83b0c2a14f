import type { Knex } from '@mikro-orm/knex';
import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import { AltchaGuard } from '../captcha/altcha';
import { createMailer } from '../mail/mailer';
import { AccountRateLimits } from './account-rate-limits';
import { setHashConcurrency } from './passwords';
import type { AccountMailing } from './registration';
import type { SessionPolicy } from './sessions';

/**
 * What the dashboard's account pages use besides the database: mail, ALTCHA, rate limits
 * and the session policy.
 */
export type AccountServices = {
  mailing: AccountMailing;
  altcha: AltchaGuard;
  limits: AccountRateLimits;
  sessions: SessionPolicy;
};

export function createAccountServices(input: {
  config: Config;
  logger: Logger;
  appSecret: string;
  knex: Knex;
  baseUrl: () => string;
}): AccountServices {
  setHashConcurrency(input.config.passwordHashConcurrency);
  return {
    mailing: {
      mailer: createMailer(input.config, input.logger),
      logger: input.logger,
      baseUrl: input.baseUrl,
    },
    altcha: new AltchaGuard(input.appSecret),
    limits: new AccountRateLimits(input.knex),
    sessions: { idleTimeoutMs: input.config.sessionIdleTimeoutMs },
  };
}
