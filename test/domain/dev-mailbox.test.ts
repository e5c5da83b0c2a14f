import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { saveToMailbox } from '../../src/domain/mail/dev-mailbox';

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
