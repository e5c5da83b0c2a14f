import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { Semaphore } from '../concurrency/semaphore';

type ScryptParams = { logN: number; r: number; p: number };

/** OWASP's scrypt minimum: N=2^17, r=8, p=1 (128 MiB and a few hundred ms a hash). */
const CURRENT: ScryptParams = { logN: 17, r: 8, p: 1 };
/** What `scrypt$<salt>$<hash>` (no parameters recorded) was made with: Node's defaults. */
const LEGACY: ScryptParams = { logN: 14, r: 8, p: 1 };
const KEY_LENGTH = 64;

/**
 * Hashes running at once, by default half of libuv's thread pool (UV_THREADPOOL_SIZE, 4 by
 * default, so 2): each one holds a pool thread and 128 MiB for a few hundred ms, and a flood
 * of sign-ins must leave threads for DNS lookups, file I/O and zlib. The rest wait in line.
 */
export function defaultHashConcurrency(poolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4) {
  return Math.max(1, Math.floor(poolSize / 2));
}

const hashing = new Semaphore(defaultHashConcurrency());

/** Sets the bound of hashes at once (PASSWORD_HASH_CONCURRENCY); 0 keeps the default. */
export function setHashConcurrency(limit: number): void {
  hashing.resize(limit > 0 ? limit : defaultHashConcurrency());
}

/** Hashes running and waiting now. */
export const hashLoad = () => hashing.load;

function scryptHash(password: string, salt: Buffer, keyLength: number, params: ScryptParams) {
  return hashing.run(() => scryptOnPool(password, salt, keyLength, params));
}

function scryptOnPool(password: string, salt: Buffer, keyLength: number, params: ScryptParams) {
  const options: ScryptOptions = {
    N: 2 ** params.logN,
    r: params.r,
    p: params.p,
    // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is below N=2^17.
    maxmem: 256 * 2 ** params.logN * params.r,
  };
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

const b64 = (text: string) => Buffer.from(text, 'base64');

type StoredHash = { params: ScryptParams; salt: Buffer; hash: Buffer };

/** `scrypt$ln=17,r=8,p=1$<salt>$<hash>`, or the older `scrypt$<salt>$<hash>`. */
function parseStored(stored: string): StoredHash | null {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt') return null;
  if (parts.length === 3) {
    return { params: LEGACY, salt: b64(parts[1]!), hash: b64(parts[2]!) };
  }
  const match = /^ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})$/.exec(parts[1] ?? '');
  if (parts.length !== 4 || !match) return null;
  const [logN, r, p] = match.slice(1).map(Number) as [number, number, number];
  if (logN < 10 || logN > 20 || r < 1 || p < 1) return null;
  return { params: { logN, r, p }, salt: b64(parts[2]!), hash: b64(parts[3]!) };
}
/** Stored with its parameters, so they can be raised later and old hashes still verify. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptHash(password, salt, KEY_LENGTH, CURRENT);
  const { logN, r, p } = CURRENT;
  return `scrypt$ln=${logN},r=${r},p=${p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed || parsed.hash.length === 0) return false;
  const actual = await scryptHash(password, parsed.salt, parsed.hash.length, parsed.params);
  return timingSafeEqual(parsed.hash, actual);
}

/** True when the hash was made with other parameters than today's: rehash at sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parseStored(stored);
  if (!parsed) return true;
  const { logN, r, p } = parsed.params;
  return logN !== CURRENT.logN || r !== CURRENT.r || p !== CURRENT.p;
}

/** A well-formed hash of nothing, verified when the e-mail is unknown so timing matches. */
export const UNKNOWN_USER_HASH = `scrypt$ln=${CURRENT.logN},r=${CURRENT.r},p=${CURRENT.p}$AAAAAAAAAAAAAAAAAAAAAA==$${'A'.repeat(86)}==`;
