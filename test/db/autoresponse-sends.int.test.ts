import { describe, expect, it } from 'vitest';
import {
  claimAutoresponse,
  claimAutoresponseWithinCaps,
  isUnsubscribed,
  releaseAutoresponse,
} from '../../src/db/sql/autoresponse-sends';
import { upsertUnsubscribed } from '../../src/db/sql/recipients';
import { eraseSender } from '../../src/domain/submissions/submission-changes';
import { AddressKeys } from '../../src/domain/mail/address-keys';
import { useScratchDatabase } from '../support/scratch-database';

// The autoresponse's interval claim and suppression read on a real PostgreSQL
// (docs/autoresponse.md): one statement decides, so concurrent claims from separate
// connections (separate workers) let exactly one through.

const db = useScratchDatabase({ poolMax: 12 });
const DAY = 24 * 3_600_000;

describe('autoresponse_sends', () => {
  it('ten claims at once for one form and address: exactly one wins', async () => {
    const { formId } = await db.accountWithForm('arclaimconcurr01');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        claimAutoresponse(
          db.orm.em.fork(),
          { formId, addressKey: 'a@example.org', submissionId: String(1000 + n) },
          DAY,
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('a retry of the claiming submission keeps its claim; another waits out the interval; a released claim frees the address', async () => {
    const { formId } = await db.accountWithForm('arclaimretry0001');
    const em = () => db.orm.em.fork();
    const first = { formId, addressKey: 'b@example.org', submissionId: '1' };
    const second = { ...first, submissionId: '2' };
    expect(await claimAutoresponse(em(), first, DAY)).toBe(true);
    expect(await claimAutoresponse(em(), first, DAY)).toBe(true); // a retried attempt
    expect(await claimAutoresponse(em(), second, DAY)).toBe(false);
    // Another form, or another address, has its own turn.
    const other = await db.accountWithForm('arclaimretry0002');
    expect(await claimAutoresponse(em(), { ...second, formId: other.formId }, DAY)).toBe(true);
    expect(await claimAutoresponse(em(), { ...second, addressKey: 'c@example.org' }, DAY)).toBe(
      true,
    );

    // The interval passed: the next submission claims it.
    await db.sql(
      `update autoresponse_sends set sent_at = now() - interval '25 hours' where form_id = ?`,
      [formId],
    );
    expect(await claimAutoresponse(em(), second, DAY)).toBe(true);
    // Released (nothing went out): a third submission may claim at once; another's release does nothing.
    await releaseAutoresponse(em(), first);
    expect(await claimAutoresponse(em(), { ...first, submissionId: '3' }, DAY)).toBe(false);
    await releaseAutoresponse(em(), second);
    expect(await claimAutoresponse(em(), { ...first, submissionId: '3' }, DAY)).toBe(true);
  });

  it('one address gets at most AUTORESPONSE_PER_ADDRESS from all forms, even in a burst over many forms at once', async () => {
    const caps = { intervalMs: DAY, perAddress: 3, perClientHour: 0 };
    const forms = [];
    for (let n = 0; n < 8; n++) forms.push(await db.accountWithForm(`arcapaddress000${n}`));
    const outcomes = await Promise.all(
      forms.map(({ formId }, n) =>
        claimAutoresponseWithinCaps(
          db.orm.em.fork(),
          { formId, addressKey: 'victim@example.org', submissionId: String(2000 + n) },
          caps,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'claimed')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'recipient_limit')).toHaveLength(5);
    // A retried attempt of a claiming submission keeps its claim at the cap.
    const winner = outcomes.indexOf('claimed');
    const retry = {
      formId: forms[winner]!.formId,
      addressKey: 'victim@example.org',
      submissionId: String(2000 + winner),
    };
    expect(await claimAutoresponseWithinCaps(db.orm.em.fork(), retry, caps)).toBe('claimed');
    // The same form within its interval is "not due", not a capped send.
    expect(
      await claimAutoresponseWithinCaps(db.orm.em.fork(), { ...retry, submissionId: '2999' }, caps),
    ).toBe('interval');
    // Another address is not affected; once the interval passed, the address may be answered again.
    const other = { ...retry, addressKey: 'someone@example.org', submissionId: '2998' };
    expect(await claimAutoresponseWithinCaps(db.orm.em.fork(), other, caps)).toBe('claimed');
    await db.sql(
      `update autoresponse_sends set sent_at = now() - interval '25 hours' where address_key = ?`,
      ['victim@example.org'],
    );
    const late = {
      formId: forms[7]!.formId,
      addressKey: 'victim@example.org',
      submissionId: '2997',
    };
    expect(await claimAutoresponseWithinCaps(db.orm.em.fork(), late, caps)).toBe('claimed');
  });

  it('one client network causes at most AUTORESPONSE_PER_CLIENT an hour, across forms and addresses', async () => {
    const caps = { intervalMs: DAY, perAddress: 0, perClientHour: 4 };
    const { formId } = await db.accountWithForm('arcapclient00001');
    const second = await db.accountWithForm('arcapclient00002');
    const claim = (n: number, client: string | null, form = formId) =>
      claimAutoresponseWithinCaps(
        db.orm.em.fork(),
        {
          formId: form,
          addressKey: `list${n}@example.org`,
          submissionId: String(3000 + n),
          clientKey: client,
        },
        caps,
      );
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        claim(n, '2001:db8:1:2::/64', n % 2 ? second.formId : formId),
      ),
    );
    expect(outcomes.filter((o) => o === 'claimed')).toHaveLength(4);
    expect(outcomes.filter((o) => o === 'client_limit')).toHaveLength(2);
    // Another network, or an unknown one (no address stored), is not affected.
    expect(await claim(10, '192.0.2.7')).toBe('claimed');
    expect(await claim(11, null)).toBe('claimed');
    // An hour later the network may cause more.
    await db.sql(
      `update autoresponse_sends set sent_at = now() - interval '61 minutes' where client_key = ?`,
      ['2001:db8:1:2::/64'],
    );
    expect(await claim(12, '2001:db8:1:2::/64')).toBe('claimed');
  });

  it("reads the account's one-click unsubscribes", async () => {
    const { accountId } = await db.accountWithForm('arunsubscribed01');
    const em = db.orm.em.fork();
    expect(await isUnsubscribed(em, accountId, 'd@example.org')).toBe(false);
    await upsertUnsubscribed(em, accountId, 'd@example.org');
    expect(await isUnsubscribed(em, accountId, 'd@example.org')).toBe(true);
    const other = await db.accountWithForm('arunsubscribed02');
    expect(await isUnsubscribed(em, other.accountId, 'd@example.org')).toBe(false);
  });

  it('erasing the sender, deleting the form or the account leave the ledger the caps count', async () => {
    const mine = await db.accountWithForm('arerasure0000001');
    const theirs = await db.accountWithForm('arerasure0000002');
    const keys = new AddressKeys('a test secret of at least thirty-two bytes');
    const send = { addressKey: keys.address(' E@example.org'), submissionId: '9' };
    await claimAutoresponse(db.orm.em.fork(), { ...send, formId: mine.formId }, DAY);
    await claimAutoresponse(db.orm.em.fork(), { ...send, formId: theirs.formId }, DAY);
    await eraseSender(db.orm.em.fork(), mine.accountId, 'E@example.org ');
    await db.sql('delete from forms where id = ?', [theirs.formId]);
    await db.sql('delete from accounts where id = ?', [mine.accountId]);
    const left = await db.sql<{ form_id: string; address_key: string }>(
      'select form_id::text, address_key from autoresponse_sends where address_key = ? order by form_id',
      [keys.address('e@example.org')],
    );
    expect(left.map((row) => row.form_id)).toEqual([mine.formId, theirs.formId]);
    // The ledger names nobody: the address itself is nowhere in it.
    expect(JSON.stringify(left)).not.toContain('example.org');
  });
});
