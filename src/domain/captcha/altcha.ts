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
 * ALTCHA proof of work for the sign-up form (altcha-lib on the server, the `altcha` widget in
 * the browser). Challenges are signed with keys derived from APP_SECRET, expire, and are
 * accepted once: a used challenge is remembered in PostgreSQL until it expires.
 */
export class AltchaGuard {
  private readonly signatureSecret: string;
  private readonly keySignatureSecret: string;

  constructor(appSecret: string) {
    const derive = (info: string) =>
      Buffer.from(hkdfSync('sha256', appSecret, 'formward', info, 32)).toString('base64url');
    this.signatureSecret = derive('altcha challenge signature v1');
    this.keySignatureSecret = derive('altcha key signature v1');
  }

  /** A new challenge, as the widget fetches it. */
  async challenge(): Promise<Challenge> {
    const { createChallenge, randomInt, deriveKey } = await altchaLib();
    return createChallenge({
      algorithm: ALGORITHM,
      cost: COST,
      counter: randomInt(...COUNTER_RANGE),
      deriveKey,
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySignatureSecret,
    });
  }

  /**
   * True when the widget's field (base64 JSON of the challenge and its solution) holds a
   * solved, unexpired challenge of ours that was not used before; it is then used up.
   */
  async redeem(em: EntityManager, field: string | undefined): Promise<boolean> {
    const payload = decodePayload(field);
    if (!payload) return false;
    const { verifySolution, deriveKey } = await altchaLib();
    let verified = false;
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
    if (!verified || typeof expiresAt !== 'number') return false;
    return markChallengeUsed(em, payload.challenge.signature!, new Date(expiresAt * 1000));
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
