import { describe, expect, it } from 'vitest';
import { sameSitePath } from '../../src/http/account/next-path';

const BASE = 'https://forms.example.com';

describe('sameSitePath (finding 3)', () => {
  it.each([
    ['/app/settings', '/app/settings'],
    ['/app/forms/7?tab=hooks#top', '/app/forms/7?tab=hooks#top'],
    ['/app/./forms/../keys', '/app/keys'],
    ['/app/a%2Fb', '/app/a%2Fb'],
  ])('%s → %s', (next, path) => {
    expect(sameSitePath(next, BASE)).toBe(path);
  });

  it.each([
    '//evil.example/x',
    '/.//evil.example/x',
    '/..//evil.example/x',
    '/%2e//evil.example/x',
    '/%2F%2Fevil.example/x',
    '/%2f/evil.example',
    '/%5Cevil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '/\tevil',
    '/\n/evil.example',
    '/x\u007f',
    'https://evil.example/',
    'javascript:alert(1)',
    'evil.example',
    '',
    `/${'a'.repeat(2048)}`,
    42,
    undefined,
  ])('refuses %j', (next) => {
    expect(sameSitePath(next, BASE)).toBeNull();
  });
});
