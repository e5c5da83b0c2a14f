import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../../src/domain/mail/mailer';
import { recordDeliveryHealth } from '../../src/plugins/manage/plugin-health';
import { useScratchDatabase } from '../support/scratch-database';

// src/plugins/manage/plugin-health.ts: a success writes the plugin's row only when it changes
// something the attempt did not already see (no failures, stamped within the last second).
describe('a successful delivery and its plugin', () => {
  const db = useScratchDatabase();
  const { sql } = db;
  const deps = {
    mailer: {} as Mailer,
    logger: pino({ level: 'silent' }),
    baseUrl: 'http://127.0.0.1',
    pluginHealth: { disableAfterFailures: 20, disableAfterMs: 86_400_000 },
  };
  let pluginId: string;

  beforeAll(async () => {
    const { formId } = await db.accountWithForm('apluginwrites001');
    const [plugin] = await sql<{ id: string }>(
      `insert into plugins (form_id, plugin_type, name, consecutive_failures, failing_since)
       values (?, 'webhook', 'w', 1, now()) returning id`,
      [formId],
    );
    pluginId = String(plugin!.id);
  });

  const failures = async () =>
    Number(
      (
        await sql<{ n: number }>('select consecutive_failures as n from plugins where id = ?', [
          pluginId,
        ])
      )[0]!.n,
    );
  const success = (recentlyHealthy: boolean) =>
    recordDeliveryHealth(db.orm.em.fork(), deps, {
      pluginId,
      pluginType: 'webhook',
      ok: true,
      final: true,
      mode: 'live',
      recentlyHealthy,
    });

  it('writes nothing when the attempt read it healthy and freshly stamped', async () => {
    // A failure counted after that read stays counted until the next success.
    await success(true);
    expect(await failures()).toBe(1);
  });

  it('resets the failures otherwise', async () => {
    await success(false);
    expect(await failures()).toBe(0);
  });
});
