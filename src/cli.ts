import { loadConfig } from './config/config';
import { accountCreate, keyCreate, keyRevoke, migrateCommand } from './cli/admin-commands';
import { mailboxCommand } from './cli/mailbox-commands';
import { receiptsRotateKey } from './cli/receipt-commands';
import { say, UsageError } from './cli/output';
import { runStack } from './cli/start';
import { EmailTakenError } from './domain/accounts/accounts';
import { LimitReachedError } from './domain/budgets/limit-reached';

const USAGE = `usage: formward <command>

  start                      everything: PostgreSQL and Temporal (embedded unless configured), HTTP,
                             and the worker as a supervised second process
  serve                      the HTTP server (API + ingest) only
  worker                     the Temporal worker only
  migrate                    apply database migrations
  account create --email E --password P [--name N]
  key create --account ID (--role admin|readonly | --scopes a,b,c) [--name N]
  key revoke KEY_ID
  receipts rotate-key        a new key for signing submission receipts (old ones stay published)
  mailbox [--limit N] [--json]
                             the newest messages of the dev mailbox (mail kept when SMTP_URL is unset)
  mailbox show FILE_OR_INDEX [--html|--raw]
                             print one of them (1 is the newest)

Configuration comes from the environment; see docs/configuration.md.`;

/** The `formward` CLI (docs/running.md). */
export async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  try {
    const config = loadConfig();
    const twoWords = command === 'account' || command === 'key' || command === 'receipts';
    switch (twoWords ? `${command} ${sub}` : command) {
      case 'start':
        return await runStack(config, { http: true, worker: true });
      case 'serve':
        return await runStack(config, { http: true, worker: false });
      case 'worker':
        return await runStack(config, { http: false, worker: true });
      case 'migrate':
        return await migrateCommand(config);
      case 'account create':
        return await accountCreate(config, rest);
      case 'key create':
        return await keyCreate(config, rest);
      case 'key revoke':
        return await keyRevoke(config, rest);
      case 'receipts rotate-key':
        return await receiptsRotateKey(config);
      case 'mailbox':
        // `mailbox` lists, `mailbox show X` prints one; the module tells the two apart.
        return await mailboxCommand(config, argv.slice(1));
      case undefined:
      case 'help':
      case '--help':
        say(USAGE);
        return;
      default:
        throw new UsageError(`unknown command: ${argv.join(' ')}`);
    }
  } catch (error) {
    // A refusal the operator can act on: its message, no stack (a budget such as MAX_API_KEYS_PER_ACCOUNT).
    if (
      error instanceof UsageError ||
      error instanceof EmailTakenError ||
      error instanceof LimitReachedError
    ) {
      say(`formward: ${error.message}`);
      if (error instanceof UsageError) say(`\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    say(`formward: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  }
}
