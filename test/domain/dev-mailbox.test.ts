import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { saveToMailbox } from '../../src/domain/mail/dev-mailbox';
import { devMailboxWarning, isLoopbackUrl } from '../../src/domain/mail/dev-mailbox-exposure';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-mailbox-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the dev mailbox', () => {
  it('keeps messages 0600 in a 0700 directory, an existing wider one included', async () => {
    const fresh = path.join(root, 'fresh');
    const file = await saveToMailbox(fresh, Buffer.from('Subject: hi\r\n\r\nbody'), '<a@b>');
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const wide = path.join(root, 'wide');
    fs.mkdirSync(wide, { mode: 0o755 });
    fs.chmodSync(wide, 0o755);
    await saveToMailbox(wide, Buffer.from('Subject: hi\r\n\r\nbody'), '<c@d>');
    expect(fs.statSync(wide).mode & 0o777).toBe(0o700);
  });
});

describe('the dev mailbox and a public BASE_URL', () => {
  it.each([
    ['http://127.0.0.1:3000', true],
    ['http://127.8.9.1', true],
    ['http://localhost:3000', true],
    ['http://[::1]:3000', true],
    ['http://0.0.0.0:3000', false],
    ['https://forms.example.com', false],
    ['http://127.0.0.1.nip.io', false],
    ['http://[::ffff:10.0.0.1]', false],
    ['not a url', false],
  ])('%s is loopback: %s', (url, loopback) => {
    expect(isLoopbackUrl(url)).toBe(loopback);
  });

  it('start-up warns when mail stays in the mailbox while BASE_URL is public', () => {
    expect(devMailboxWarning('dev-mailbox', 'https://forms.example.com')).toMatch(
      /^SMTP_URL is unset while BASE_URL \(https:\/\/forms\.example\.com\) is not a loopback address.*Set SMTP_URL\.$/s,
    );
    expect(devMailboxWarning('dev-mailbox', 'http://127.0.0.1:3000')).toBeNull();
    expect(devMailboxWarning('smtp', 'https://forms.example.com')).toBeNull();
  });
});
