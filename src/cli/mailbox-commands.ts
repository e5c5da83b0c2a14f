import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Config } from '../config/config';
import { findMailboxEntry, listMailbox, mailboxDirectory } from '../domain/mail/dev-mailbox';
import { findPart, headerValue, readMimeMessage } from '../domain/mail/mime-reader';
import { UsageError } from './output';

/** Where a command's report goes (stdout by default; tests pass their own). */
export type Write = (text: string) => void;

const toStdout: Write = (text) => process.stdout.write(text);

/** `formward mailbox [--limit N] [--json]` and `formward mailbox show FILE_OR_INDEX [--html|--raw]` */
export async function mailboxCommand(
  config: Pick<Config, 'dataDir'>,
  args: string[],
  write: Write = toStdout,
): Promise<void> {
  if (args[0] === 'show') return mailboxShow(config, args.slice(1), write);
  return mailboxList(config, args, write);
}

/** Lists the newest messages of the dev mailbox: index, date, to, subject, file. */
export async function mailboxList(
  config: Pick<Config, 'dataDir'>,
  args: string[],
  write: Write = toStdout,
): Promise<void> {
  const { values } = parseOptions(() =>
    parseArgs({
      args,
      options: {
        limit: { type: 'string', default: '20' },
        json: { type: 'boolean', default: false },
      },
    }),
  );
  if (!/^\d+$/.test(values.limit) || Number(values.limit) < 1) {
    throw new UsageError('--limit must be a positive whole number');
  }
  const directory = mailboxDirectory(config.dataDir);
  const entries = (await listMailbox(directory)).slice(0, Number(values.limit));
  if (values.json) {
    const rows = entries.map((entry) => ({ ...entry, date: entry.date.toISOString() }));
    write(`${JSON.stringify(rows)}\n`);
    return;
  }
  if (entries.length === 0) {
    write(`The dev mailbox (${directory}) is empty.\n`);
    return;
  }
  const rows = entries.map((entry) => [
    String(entry.index),
    entry.date.toISOString().replace('T', ' ').slice(0, 19),
    clip(entry.to, 40),
    clip(entry.subject, 60),
    entry.file,
  ]);
  write(`${table(['#', 'DATE (UTC)', 'TO', 'SUBJECT', 'FILE'], rows)}\n`);
  write(`\n${directory}\nShow one with: formward mailbox show 1\n`);
}

/** Prints one message: its main headers and text, or `--html` its HTML part, or `--raw` the .eml. */
export async function mailboxShow(
  config: Pick<Config, 'dataDir'>,
  args: string[],
  write: Write = toStdout,
): Promise<void> {
  const { values, positionals } = parseOptions(() =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        raw: { type: 'boolean', default: false },
        html: { type: 'boolean', default: false },
      },
    }),
  );
  const wanted = positionals[0];
  if (!wanted || positionals.length > 1) {
    throw new UsageError('mailbox show needs one FILE or INDEX (1 is the newest message)');
  }
  const file = await findMailboxEntry(mailboxDirectory(config.dataDir), wanted);
  if (!file) throw new UsageError(`no message ${wanted} in the dev mailbox`);
  const raw = await fs.readFile(file);
  if (values.raw) {
    write(raw.toString('utf8'));
    return;
  }
  const message = readMimeMessage(raw);
  const lines = [`File:       ${file}`];
  for (const name of ['Date', 'From', 'To', 'Cc', 'Reply-To', 'Subject', 'Message-ID']) {
    const value = headerValue(message, name);
    if (value !== undefined) lines.push(`${`${name}:`.padEnd(11)} ${value}`);
  }
  const body = values.html
    ? findPart(message, 'text/html')?.body
    : (findPart(message, 'text/plain') ?? findPart(message, 'text/html'))?.body;
  write(`${lines.join('\n')}\n\n${body ?? '(no text part)'}\n`);
}

/** An unknown or malformed option is a usage mistake, answered with the usage text. */
function parseOptions<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function clip(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
