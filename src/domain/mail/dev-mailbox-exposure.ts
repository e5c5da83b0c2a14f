import net from 'node:net';

/** True when the URL's host is this machine only: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1';
}

/**
 * The dev mailbox holds sign-up and reset links. It is only safe on a machine nobody else
 * reaches: a BASE_URL that is not loopback means others use this instance (or a proxy on this
 * host forwards to it), so the mailbox page is off and start-up says why.
 */
export function devMailboxWarning(mailerKind: 'smtp' | 'dev-mailbox', baseUrl: string) {
  if (mailerKind !== 'dev-mailbox' || isLoopbackUrl(baseUrl)) return null;
  return (
    `SMTP_URL is unset while BASE_URL (${baseUrl}) is not a loopback address: e-mail ` +
    '(sign-up confirmations, password resets, notifications) is kept in DATA_DIR/mailbox and ' +
    'never sent, and /dev/mailbox is not served. Set SMTP_URL.'
  );
}
