import type { Challenge } from 'altcha-lib' with { 'resolution-mode': 'import' };

/** Solves an ALTCHA challenge as the widget does; the field value (base64 JSON) it would post. */
export async function solveAltcha(challenge: Challenge): Promise<string> {
  const { solveChallenge } = await import('altcha-lib');
  const { deriveKey } = await import('altcha-lib/algorithms/pbkdf2');
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge could not be solved');
  const payload = {
    challenge: { parameters: challenge.parameters, signature: challenge.signature },
    solution,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}
