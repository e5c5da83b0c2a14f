import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import { AltchaGuard } from '../captcha/altcha';
import { createMailer } from '../mail/mailer';
import { UnsubscribeTokens } from '../recipients/unsubscribe-tokens';
import { AccountRateLimits } from './account-rate-limits';
import { INVITATION_UNSUBSCRIBE_PURPOSE } from './invitation-opt-outs';
import { createProviderFetch, OidcClient } from './oidc-client';
import { setHashConcurrency } from './passwords';
import type { AccountMailing } from './registration';
import type { SessionPolicy } from './sessions';

/**
 * What the dashboard's account pages use besides the database: mail, ALTCHA, rate limits
 * the session policy and single sign-on.
 */
export type AccountServices = {
  mailing: AccountMailing;
  /** Seals the one-click unsubscribe links of invitation mail. */
  invitationUnsubscribes: UnsubscribeTokens;
  altcha: AltchaGuard;
  limits: AccountRateLimits;
  sessions: SessionPolicy;
  /** Single sign-on (OIDC_*), or null when it is not configured. */
  oidc: OidcClient | null;
};

export function createAccountServices(input: {
  config: Config;
  logger: Logger;
  appSecret: string;
  pool: Pool;
  baseUrl: () => string;
}): AccountServices {
  setHashConcurrency(input.config.passwordHashConcurrency);
  return {
    mailing: {
      mailer: createMailer(input.config, input.logger),
      logger: input.logger,
      baseUrl: input.baseUrl,
    },
    invitationUnsubscribes: new UnsubscribeTokens(input.appSecret, INVITATION_UNSUBSCRIBE_PURPOSE),
    altcha: new AltchaGuard(input.appSecret),
    limits: new AccountRateLimits(input.pool),
    sessions: { idleTimeoutMs: input.config.sessionIdleTimeoutMs },
    oidc: input.config.oidc
      ? new OidcClient(
          input.config.oidc,
          () => `${input.baseUrl()}/login/oidc/callback`,
          createProviderFetch(),
        )
      : null,
  };
}
