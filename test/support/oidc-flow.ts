import { expect } from 'vitest';

/** Cookies per origin, as a browser keeps them (names and values only; enough for these flows). */
export class CookieJar {
  private readonly jars = new Map<string, Map<string, string>>();

  store(url: string, res: Response): void {
    const jar = this.jars.get(new URL(url).origin) ?? new Map<string, string>();
    this.jars.set(new URL(url).origin, jar);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const name = pair!.slice(0, pair!.indexOf('=')).trim();
      const value = pair!.slice(pair!.indexOf('=') + 1).trim();
      const gone = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (gone || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }

  header(url: string): string {
    const jar = this.jars.get(new URL(url).origin);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : '';
  }

  get(url: string, name: string): string | undefined {
    return this.jars.get(new URL(url).origin)?.get(name);
  }

  set(url: string, name: string, value: string): void {
    const jar = this.jars.get(new URL(url).origin) ?? new Map<string, string>();
    this.jars.set(new URL(url).origin, jar);
    jar.set(name, value);
  }
}

/** One request as the browser with this jar sends it; redirects are not followed. */
export async function browse(
  jar: CookieJar,
  url: string,
  init: { method?: string; form?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { cookie: jar.header(url) };
  if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(url, {
    method: init.method ?? (init.form ? 'POST' : 'GET'),
    headers,
    body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    redirect: 'manual',
  });
  jar.store(url, res);
  return res;
}

/**
 * Starts single sign-on at the stack (`/login/oidc`), signs in at the test provider's forms
 * as `login` and consents, and answers the callback URL the provider sends the browser to,
 * not yet followed (a test may tamper with it or follow it twice).
 */
export async function signInAtProvider(
  jar: CookieJar,
  stackUrl: string,
  login: string,
  next?: string,
): Promise<string> {
  const start = `${stackUrl}/login/oidc${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}`;
  const res = await browse(jar, start);
  expect(res.status, await res.clone().text()).toBe(303);
  return passProviderForms(jar, new URL(res.headers.get('location')!, start).href, stackUrl, login);
}

/**
 * From the provider's authorization URL: signs in at its forms as `login`, consents, and
 * answers the URL under `returnTo` the provider sends the browser back to, not followed.
 */
export async function passProviderForms(
  jar: CookieJar,
  authorizationUrl: string,
  returnTo: string,
  login: string,
): Promise<string> {
  let url = authorizationUrl;
  for (let step = 0; step < 12; step++) {
    if (url.startsWith(`${returnTo}/`)) return url;
    let res = await browse(jar, url);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
      continue;
    }
    const html = await res.text();
    expect(res.status, html).toBe(200);
    // The provider's login form, then its consent form: post what each asks for.
    const action = /<form[^>]*action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
    const form: Record<string, string> = {};
    for (const [, name, value] of html.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g))
      form[name!] = value!;
    if (html.includes('name="login"')) Object.assign(form, { login, password: 'any password' });
    res = await browse(jar, new URL(action, url).href, { form });
    expect([302, 303]).toContain(res.status);
    url = new URL(res.headers.get('location')!, url).href;
  }
  throw new Error('the provider did not send the browser back');
}
