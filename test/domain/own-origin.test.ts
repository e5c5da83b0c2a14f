import { describe, expect, it } from 'vitest';
import { ownOriginError, ownServiceUrls } from '../../src/outbound/own-origin';

const own = ['http://127.0.0.1:3000', 'https://formulare.bücher.example'];
const check = (url: string) => ownOriginError(new URL(url), own);

describe('ownOriginError', () => {
  it.each([
    'http://127.0.0.1:3000/api/forms',
    'https://formulare.xn--bcher-kva.example/x',
    'https://FORMULARE.BÜCHER.EXAMPLE/hook',
    'https://formulare.bücher.example.:443/hook',
    'https://formulare.bücher.example:8443/F/token',
    'https://formulare.bücher.example:8443//json/token',
    'https://127.0.0.1/f/token',
  ])('refuses %s', (url) => {
    expect(check(url)).toMatch(/this Formward service/);
  });

  it.each([
    'https://127.0.0.1:3000/api/forms',
    'https://formulare.bücher.example:8443/hook',
    'https://other.bücher.example/f/token',
    'https://formulare.bücher.example.evil.test/f/token',
  ])('lets %s through', (url) => {
    expect(check(url)).toBeNull();
  });
});

describe('ownServiceUrls', () => {
  const urls = { base: 'https://forms.example', ingest: 'https://in.example' };

  it('adds FORM_PAGES_TARGET on HTTPS and HTTP when it is set', () => {
    const own = ownServiceUrls(urls, 'pages.example');
    expect(ownOriginError(new URL('https://pages.example/hook'), own)).toMatch(/itself/);
    expect(ownOriginError(new URL('http://pages.example/hook'), own)).toMatch(/itself/);
    expect(ownOriginError(new URL('https://pages.example:8443/json/x'), own)).toMatch(/ingest/);
    expect(ownOriginError(new URL('https://pages.example:8443/hook'), own)).toBeNull();
    expect(ownServiceUrls(urls, '2001:db8::1')).toContain('https://[2001:db8::1]');
    expect(ownServiceUrls(urls, null)).toEqual([urls.base, urls.ingest]);
  });
});
