import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { formPagesTarget } from '../../src/domain/domains/pages-target';

// FORM_PAGES_TARGET (docs/custom-domains.md): the host custom domains point at.

describe('FORM_PAGES_TARGET', () => {
  it('defaults to the host of the ingest URL, read at each use', () => {
    const config = loadConfig({ INGEST_URL: 'https://Ingest.Example.com/' });
    expect(config.formPagesTarget).toBeNull();
    expect(formPagesTarget(config.formPagesTarget, config.ingestUrl)).toBe('ingest.example.com');
    expect(formPagesTarget(null, 'http://[::1]:3000')).toBe('::1');
  });

  it('takes a host name (lower-cased, no trailing dot) or an IP address', () => {
    expect(loadConfig({ FORM_PAGES_TARGET: 'Pages.Example.com.' }).formPagesTarget).toBe(
      'pages.example.com',
    );
    expect(loadConfig({ FORM_PAGES_TARGET: '203.0.113.5' }).formPagesTarget).toBe('203.0.113.5');
    expect(loadConfig({ FORM_PAGES_TARGET: ' ' }).formPagesTarget).toBeNull();
  });

  it('refuses a URL', () => {
    expect(() => loadConfig({ FORM_PAGES_TARGET: 'https://pages.example.com/' })).toThrow(
      /FORM_PAGES_TARGET/,
    );
  });
});
