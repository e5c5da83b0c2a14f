import type { EntityManager } from '@mikro-orm/postgresql';
import {
  claimDailyRequest,
  findConfirmationToken,
  recipientStates,
  storeConfirmationToken,
  takeConfirmationToken,
  upsertConfirmed,
} from '../../db/sql/recipients';
import { takeHourlyMail } from '../../db/sql/mail-budget';
import type { AccountMailing } from '../accounts/registration';
import { randomToken, sha256Hex } from '../accounts/secrets';
import { confirmationRequestMail } from './confirmation-mail';
import { normalizedAddresses } from './recipient-states';

/** How long a confirmation link works. */
export const CONFIRMATION_TTL_MS = 7 * 24 * 3600_000;

/**
 * Asks each address of a form's recipients that is not confirmed for the account (and has no
 * live request of this account) to confirm: at most one request per address a day across all
 * accounts, so many accounts cannot flood one address, and each request taken from the
 * account's hourly mail budget, so one account cannot mail a request to endless strangers.
 * Only the token's hash is stored. The mail is sent without making the request wait; a
 * failure is logged.
 */
export async function requestConfirmations(
  em: EntityManager,
  mailing: AccountMailing,
  input: {
    accountId: string;
    formName: string;
    addresses: readonly string[];
    /** ACCOUNT_MAIL_PER_HOUR. */
    mailPerHour: number;
  },
): Promise<string[]> {
  const states = await recipientStates(em, input.accountId, normalizedAddresses(input.addresses));
  const asked: string[] = [];
  for (const state of states) {
    if (state.confirmed || state.pending) continue;
    if (!(await takeHourlyMail(em, input.accountId, 1, input.mailPerHour))) {
      mailing.logger.warn(
        { accountId: input.accountId },
        'recipient confirmation requests held back: the hourly mail budget is used up',
      );
      break;
    }
    if (!(await claimDailyRequest(em, state.address))) continue;
    const token = randomToken(32);
    await storeConfirmationToken(em, {
      accountId: input.accountId,
      address: state.address,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(Date.now() + CONFIRMATION_TTL_MS),
    });
    const mail = confirmationRequestMail({
      to: state.address,
      accountId: input.accountId,
      formName: input.formName,
      link: `${mailing.baseUrl()}/recipients/confirm?token=${encodeURIComponent(token)}`,
      senderDomain: mailing.mailer.senderDomain,
    });
    mailing.mailer
      .send(mail)
      .catch((error: unknown) =>
        mailing.logger.error({ err: error }, 'a recipient confirmation request could not be sent'),
      );
    asked.push(state.address);
  }
  return asked;
}

const plausibleToken = (token: string) => token.length > 0 && token.length <= 200;

/** What a confirmation link would confirm, without confirming it (the page before the button). */
export async function pendingConfirmation(em: EntityManager, token: string) {
  return plausibleToken(token) ? findConfirmationToken(em, sha256Hex(token)) : null;
}

/** Follows a confirmation link: the (account, address) it confirmed, once. */
export async function confirmRecipient(em: EntityManager, token: string) {
  return plausibleToken(token) ? takeConfirmationToken(em, sha256Hex(token)) : null;
}

/** Confirms an address for an account directly, as following its link would (used by tests). */
export async function markRecipientConfirmed(
  em: EntityManager,
  accountId: string,
  address: string,
): Promise<void> {
  await upsertConfirmed(em, accountId, address.trim().toLowerCase());
}
