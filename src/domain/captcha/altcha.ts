import { hkdfSync } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Challenge } from 'altcha-lib' with { 'resolution-mode': 'import' };
import { markChallengeUsed } from '../../db/sql/altcha-challenges';

/** altcha-lib ships as an ES module only as far as TypeScript sees: loaded on first use. */
const altchaLib = () =>
  Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/pbkdf2')]).then(
    ([lib, pbkdf2]) => ({ ...lib, deriveKey: pbkdf2.deriveKey }),
  );

/** How long a challenge may be solved and submitted. */
export const CHALLENGE_TTL_MS = 10 * 60_000;

/**
 * PBKDF2 iterations per attempt and the range of attempts a browser needs: about a second
 * of work for a person, a real cost for a script signing up by the thousand.
 */
const COST = 1_000;
const COUNTER_RANGE: [number, number] = [2_000, 8_000];
const ALGORITHM = 'PBKDF2/SHA-256';

/**
 * ALTCHA proof of work (altcha-lib on the server, the `altcha` widget in the browser), for
 * the sign-up form and for forms with `captcha: {"provider": "altcha"}`. Challenges are signed
 * with keys derived from APP_SECRET (a `scope` derives keys of its own, so a sign-up challenge
 * is no form's), may carry `data` the signature binds (the form they were issued for), expire,
 * and are accepted once: a used challenge is remembered in PostgreSQL until it expires.
 */
export class AltchaGuard {
  private readonly signatureSecret: string;
  private readonly keySignatureSecret: string;

  constructor(appSecret: string, scope = '') {
    const derive = (info: string) =>
      Buffer.from(hkdfSync('sha256', appSecret, 'formward', info + scope, 32)).toString(
        'base64url',
      );
    this.signatureSecret = derive('altcha challenge signature v1');
    this.keySignatureSecret = derive('altcha key signature v1');
  }

  /** A new challenge, as the widget fetches it; `data` is signed into it. */
  async challenge(data?: Record<string, string>, now = Date.now()): Promise<Challenge> {
    const { createChallenge, randomInt, deriveKey } = await altchaLib();
    return createChallenge({
      algorithm: ALGORITHM,
      cost: COST,
      counter: randomInt(...COUNTER_RANGE),
      deriveKey,
      data,
      expiresAt: new Date(now + CHALLENGE_TTL_MS),
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
    });
  }

  /**
   * True when the widget's field (base64 JSON of the challenge and its solution) holds a
   * solved, unexpired challenge of ours that was not used before; it is then used up.
   */
  async redeem(
    em: EntityManager,
    field: string | undefined,
    data?: Record<string, string>,
  ): Promise<boolean> {
    return (await this.refusal(em, field, data)) === null;
  }

  /**
   * Why the field is refused (for the submitter's page), or null when it holds a solved,
   * unexpired challenge of ours with this `data`, now used up.
   */
  async refusal(
    em: EntityManager,
    field: string | undefined,
    data: Record<string, string> = {},
  ): Promise<string | null> {
    if (!field) return 'the ALTCHA check was not completed';
    const payload = decodePayload(field);
    if (!payload) return 'the ALTCHA answer cannot be read';
    const signed = payload.challenge.parameters.data ?? {};
    if (Object.entries(data).some(([key, value]) => signed[key] !== value))
      return 'the ALTCHA challenge was issued for another form';
    const { verifySolution, deriveKey } = await altchaLib();
    let verified: boolean;
    try {
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: this.signatureSecret,
        hmacKeySignatureSecret: this.keySignatureSecret,
      });
      verified = result.verified;
    } catch {
      verified = false; // malformed parameters: not a solution of ours
    }
    const expiresAt = payload.challenge.parameters.expiresAt;
    if (!verified || typeof expiresAt !== 'number')
      return 'the ALTCHA answer is wrong or its challenge expired';
    const fresh = await markChallengeUsed(
      em,
      payload.challenge.signature,
      new Date(expiresAt * 1000),
    );
    return fresh ? null : 'the ALTCHA challenge was already used';
  }
}

type WidgetPayload = {
  challenge: Challenge & { signature: string };
  solution: { counter: number; derivedKey: string; time?: number };
};

function decodePayload(field: string | undefined): WidgetPayload | null {
  if (!field || field.length > 8192) return null;
  try {
    const value = JSON.parse(Buffer.from(field, 'base64').toString('utf8')) as WidgetPayload;
    const ok =
      typeof value?.challenge?.signature === 'string' &&
      typeof value.challenge.parameters === 'object' &&
      value.challenge.parameters !== null &&
      typeof value.solution?.counter === 'number' &&
      typeof value.solution.derivedKey === 'string';
    return ok ? value : null;
  } catch {
    return null;
  }
}
