import { describe, expect, it } from 'vitest';
import {
  captchaToStore,
  captchaView,
  CaptchaSecretMissingError,
  takeCaptchaResponse,
} from '../../src/domain/captcha/captcha-settings';
import { SigningSecretCipher } from '../../src/domain/secrets/signing-secret';
import { captchaWidget, captchaEmbedLines } from '../../src/http/ingest/captcha-widget';
import { autocompleteScript } from '../../src/http/ingest/autocomplete-script';

// A form's captcha settings (docs/captcha.md): sealing and keeping the secret, what is shown,
// the widget fields taken out of a payload, and the widget markup escaped.

const APP_SECRET = 'captcha-unit-test-app-secret-0123456789';
const cipher = new SigningSecretCipher(APP_SECRET, 'captcha secrets v1');
const urls = {
  challengeUrl: 'https://in.example/f/t/challenge',
  altchaScriptUrl: 'https://in.example/f/t/altcha.js',
};

describe('captchaToStore', () => {
  it('seals a new secret with a key of its own, and keeps it for the same provider only', () => {
    const stored = captchaToStore(
      { provider: 'turnstile', site_key: 'site', secret: 'top-secret' },
      null,
      cipher,
    );
    expect(stored).toMatchObject({ provider: 'turnstile', siteKey: 'site' });
    const sealed = (stored as { sealedSecret: string }).sealedSecret;
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('top-secret');
    expect(cipher.open(sealed)).toBe('top-secret');
    // Webhook signing secrets' key cannot open it.
    expect(() => new SigningSecretCipher(APP_SECRET).open(sealed)).toThrow(/cannot be opened/);

    const kept = captchaToStore({ provider: 'turnstile', site_key: 'site-2' }, stored, cipher);
    expect(kept).toEqual({ provider: 'turnstile', siteKey: 'site-2', sealedSecret: sealed });
    expect(() => captchaToStore({ provider: 'hcaptcha', site_key: 'h' }, stored, cipher)).toThrow(
      CaptchaSecretMissingError,
    );
    expect(captchaToStore({ provider: 'altcha' }, stored, cipher)).toEqual({ provider: 'altcha' });
    expect(captchaToStore(null, stored, cipher)).toBeNull();
  });

  it('shows provider, site key and secret_set, never the secret', () => {
    const stored = captchaToStore(
      { provider: 'recaptcha', site_key: 'rc', secret: 's3cr3t', min_score: 0.7 },
      null,
      cipher,
    );
    const view = captchaView(stored);
    expect(view).toEqual({
      provider: 'recaptcha',
      site_key: 'rc',
      secret_set: true,
      min_score: 0.7,
    });
    expect(JSON.stringify(view)).not.toMatch(/s3cr3t|v1:/);
    expect(captchaView(null)).toBeNull();
  });
});

describe('takeCaptchaResponse', () => {
  it("takes every widget field out and reads the provider's", () => {
    const taken = takeCaptchaResponse(
      { provider: 'hcaptcha', siteKey: 'h', sealedSecret: 'v1:x' },
      { name: 'Ada', 'h-captcha-response': 'tok', 'g-recaptcha-response': 'tok', altcha: 'x' },
    );
    expect(taken).toEqual({ fields: { name: 'Ada' }, response: 'tok' });
    const array = takeCaptchaResponse({ provider: 'altcha' }, { altcha: ['a', 'b'] });
    expect(array).toEqual({ fields: {}, response: undefined });
  });
});

describe('the widget markup', () => {
  it('escapes a hostile site key in embed_html and in the form script', () => {
    const hostile = '"><script>alert(1)</script>';
    const widget = captchaWidget(
      { provider: 'turnstile', siteKey: hostile, sealedSecret: 'v1:x' },
      urls,
    );
    const html = captchaEmbedLines(widget).join('\n');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('data-sitekey="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    const script = autocompleteScript('t', 'https://in.example/f/t', widget);
    expect(script).not.toContain('</script>');
  });

  it('ALTCHA loads from the ingest server; reCAPTCHA v3 renders by site key', () => {
    expect(captchaEmbedLines(captchaWidget({ provider: 'altcha' }, urls))).toEqual([
      '<script src="https://in.example/f/t/altcha.js" async defer></script>',
      '<altcha-widget challenge="https://in.example/f/t/challenge" name="altcha"></altcha-widget>',
    ]);
    const v3 = captchaEmbedLines(
      captchaWidget(
        { provider: 'recaptcha', siteKey: 'k', sealedSecret: 'v1:x', minScore: 0.5 },
        urls,
      ),
    );
    expect(v3[0]).toBe(
      '<script src="https://www.google.com/recaptcha/api.js?render=k" async defer></script>',
    );
    expect(v3[1]).toContain('name="g-recaptcha-response"');
    expect(captchaWidget(null, urls)).toBeNull();
  });
});
