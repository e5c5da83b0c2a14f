import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { headerValue, readMimeHeaders } from './mime-reader';

/**
 * The dev mailbox: with no SMTP_URL, every message is kept as an .eml file (raw RFC 822)
 * under `${DATA_DIR}/mailbox/`, where `formward mailbox` lists it and mail clients open it.
 */
export function mailboxDirectory(dataDir: string): string {
  return path.join(dataDir, 'mailbox');
}

/**
 * Stores one raw message and returns its path. The name starts with the time, so names sort
 * by age; it is written to a temporary name first so a listing never sees half a message.
 */
export async function saveToMailbox(
  directory: string,
  raw: Buffer,
  messageId: string,
  now = new Date(),
): Promise<string> {
  // Messages hold submissions: only the service's user may read them.
  await fs.mkdir(directory, { recursive: true, mode: 0o700 });
  await fs.chmod(directory, 0o700);
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  const tag = createHash('sha256').update(messageId).digest('hex').slice(0, 10);
  const file = path.join(directory, `${stamp}-${tag}.eml`);
  const temporary = path.join(directory, `.${randomBytes(6).toString('hex')}.tmp`);
  await fs.writeFile(temporary, raw, { mode: 0o600 });
  await fs.rename(temporary, file);
  return file;
}

export type MailboxEntry = {
  /** 1 is the newest message. */
  index: number;
  file: string;
  path: string;
  date: Date;
  to: string;
  subject: string;
  messageId: string;
};

/** The messages of the mailbox, newest first (an absent mailbox is an empty one). */
export async function listMailbox(directory: string): Promise<MailboxEntry[]> {
  let names: string[];
  try {
    names = (await fs.readdir(directory)).filter((name) => name.endsWith('.eml'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries = await Promise.all(
    names.map(async (file) => {
      const filePath = path.join(directory, file);
      const [stat, raw] = await Promise.all([fs.stat(filePath), fs.readFile(filePath)]);
      const part = { headers: readMimeHeaders(raw) };
      const dateHeader = headerValue(part, 'date');
      const parsedDate = dateHeader ? new Date(dateHeader) : null;
      return {
        file,
        path: filePath,
        modifiedAt: stat.mtimeMs,
        date: parsedDate && !Number.isNaN(parsedDate.getTime()) ? parsedDate : stat.mtime,
        to: headerValue(part, 'to') ?? '',
        subject: headerValue(part, 'subject') ?? '',
        messageId: headerValue(part, 'message-id') ?? '',
      };
    }),
  );
  // Newest written first; names (which start with the time) settle equal times.
  entries.sort((a, b) => b.modifiedAt - a.modifiedAt || b.file.localeCompare(a.file));
  return entries.map(({ modifiedAt: _modifiedAt, ...entry }, i) => ({ index: i + 1, ...entry }));
}

/**
 * Finds one message by its listing index (`1` is the newest), its file name in the mailbox,
 * or a path to an .eml file.
 */
export async function findMailboxEntry(
  directory: string,
  fileOrIndex: string,
): Promise<string | null> {
  if (/^\d+$/.test(fileOrIndex)) {
    const entries = await listMailbox(directory);
    return entries[Number(fileOrIndex) - 1]?.path ?? null;
  }
  for (const candidate of [
    path.join(directory, path.basename(fileOrIndex)),
    path.resolve(fileOrIndex),
  ]) {
    try {
      if ((await fs.stat(candidate)).isFile()) return candidate;
    } catch {
      // not this one; try the next reading of the argument
    }
  }
  return null;
}
