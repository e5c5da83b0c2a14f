import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  manageKeyHash,
  manageToken,
  manageUrl,
  newManageSecret,
  parseManageLink,
  parseManageToken,
  secretMatches,
} from '../../src/domain/manage/manage-secret';
import { IngestRateLimits } from '../../src/http/ingest/rate-limiter';

// A manage link's secret, its stored hash and the link's parts (docs/manage-links.md).

describe('the secret', () => {
  it('is 32 random bytes as base64url, stored as its SHA-256 only', () => {
    const { secret, hash } = newManageSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(hash).toBe(createHash('sha256').update(secret).digest('base64url'));
    expect(hash).not.toContain(secret);
    expect(newManageSecret().secret).not.toBe(secret);
  });

  it('matches its own hash only', () => {
    const { secret, hash } = newManageSecret();
    expect(secretMatches(hash, secret)).toBe(true);
    expect(secretMatches(hash, newManageSecret().secret)).toBe(false);
    expect(secretMatches(manageKeyHash(`${secret}x`), secret)).toBe(false);
    expect(secretMatches(null, secret)).toBe(false);
    expect(secretMatches('short', secret)).toBe(false);
  });
});

describe('the link', () => {
  const { secret } = newManageSecret();

  it('is the ingest URL, /s/, the id and the secret', () => {
    expect(manageUrl('https://forms.example.com', '42', secret)).toBe(
      `https://forms.example.com/s/42/${secret}`,
    );
  });

  it('parses only ids and secrets of the shapes handed out', () => {
    expect(parseManageLink('42', secret)).toEqual({ submissionId: '42', secret });
    expect(parseManageLink('042', secret)).toBeNull();
    expect(parseManageLink('0', secret)).toBeNull();
    expect(parseManageLink('1234567890123456789', secret)).toBeNull();
    expect(parseManageLink('4a', secret)).toBeNull();
    expect(parseManageLink('42', secret.slice(1))).toBeNull();
    expect(parseManageLink('42', `${secret.slice(1)}=`)).toBeNull();
    expect(parseManageLink('42', `${secret.slice(1)}/`)).toBeNull();
  });

  it('travels to the thank-you page as id.secret, and nothing else reads as one', () => {
    const token = manageToken('42', secret);
    expect(parseManageToken(token)).toEqual({ submissionId: '42', secret });
    expect(parseManageToken(`${token}.x`)).toBeNull();
    expect(parseManageToken('42')).toBeNull();
    expect(parseManageToken(`x.${secret}`)).toBeNull();
  });
});

describe('MANAGE_LINK_RATE', () => {
  it('counts every manage-link request of a client network, whatever the submission', () => {
    const limits = new IngestRateLimits({
      postsPerMinute: 0,
      bytesPerMinute: 0,
      pagesPerMinute: 0,
      manageLinksPerMinute: 2,
    });
    limits.countManageLink('198.51.100.7');
    limits.countManageLink('198.51.100.7');
    expect(() => limits.countManageLink('198.51.100.7')).toThrow(/too many requests/);
    expect(() => limits.countManageLink('198.51.100.8')).not.toThrow();
  });
});
