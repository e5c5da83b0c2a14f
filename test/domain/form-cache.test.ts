import type { EntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { FormCache, snapshotBytes } from '../../src/domain/forms/form-cache';

// The form cache over a stand-in for the database: a map of tokens to form rows.

const token = (i: number) => `tok${String(i).padStart(13, '0')}`;

function formRow(i: number, fieldsBytes = 100) {
  return {
    id: String(i),
    accountId: '1',
    name: `form ${i}`,
    endpointToken: token(i),
    isActive: true,
    acceptFiles: false,
    allowedDomains: [],
    successRedirectUrl: null,
    captcha: null,
    fields: [{ name: 'a', label: 'x'.repeat(fieldsBytes), type: 'text', required: false }],
    unknownFields: 'keep',
    page: { title: 'T', submit_label: 'Send', success_message: 'Thanks' },
    domain: null,
  };
}

function database() {
  const rows = new Map<string, ReturnType<typeof formRow>>();
  let reads = 0;
  const em = {
    findOne: async (_entity: unknown, where: { endpointToken: string }) => {
      reads++;
      return rows.get(where.endpointToken) ?? null;
    },
  } as unknown as EntityManager;
  return { rows, em: () => em, reads: () => reads };
}

const clock = () => {
  const c = { now: 0, fn: () => c.now };
  return c;
};

describe('FormCache', () => {
  it('keeps a form for its ttl, forgets it on change, and never caches an unknown token', async () => {
    const db = database();
    const time = clock();
    const cache = new FormCache({ maxBytes: 1 << 20, ttlMs: 1000, now: time.fn });
    db.rows.set(token(1), formRow(1));
    const first = await cache.byToken(db.em, token(1));
    expect(first?.name).toBe('form 1');
    await cache.byToken(db.em, token(1));
    expect(db.reads()).toBe(1);
    time.now += 1000;
    await cache.byToken(db.em, token(1));
    expect(db.reads()).toBe(2);
    cache.forget(token(1));
    db.rows.set(token(1), { ...formRow(1), name: 'renamed' });
    expect((await cache.byToken(db.em, token(1)))?.name).toBe('renamed');
    // Unknown, then created: seen at once.
    expect(await cache.byToken(db.em, token(2))).toBeNull();
    db.rows.set(token(2), formRow(2));
    expect((await cache.byToken(db.em, token(2)))?.id).toBe('2');
  });

  it('gives each content its own version', async () => {
    const db = database();
    const cache = new FormCache({ maxBytes: 1 << 20, ttlMs: 0 });
    db.rows.set(token(1), formRow(1));
    const a = await cache.byToken(db.em, token(1));
    const again = await cache.byToken(db.em, token(1));
    db.rows.set(token(1), { ...formRow(1), fields: [] });
    const changed = await cache.byToken(db.em, token(1));
    expect(again!.version).toBe(a!.version);
    expect(changed!.version).not.toBe(a!.version);
  });

  it('stays under its byte cap however many large forms are read', async () => {
    const db = database();
    const maxBytes = 1 << 20;
    const cache = new FormCache({ maxBytes, ttlMs: 60_000 });
    for (let i = 0; i < 500; i++) db.rows.set(token(i), formRow(i, 60 * 1024));
    for (let i = 0; i < 500; i++) {
      expect((await cache.byToken(db.em, token(i)))?.id).toBe(String(i));
      expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
    }
    // Each snapshot is counted at about twice its 60 KiB: 8 fit in 1 MiB.
    expect(cache.bytes).toBeGreaterThan(maxBytes - snapshotBytes(61 * 1024));
    // The most recent are kept, the oldest read again.
    const reads = db.reads();
    await cache.byToken(db.em, token(499));
    expect(db.reads()).toBe(reads);
    await cache.byToken(db.em, token(0));
    expect(db.reads()).toBe(reads + 1);
  });

  it('sweeps expired forms of distinct tokens instead of keeping them', async () => {
    const db = database();
    const time = clock();
    const cache = new FormCache({ maxBytes: 1 << 30, ttlMs: 1000, now: time.fn });
    for (let i = 0; i < 2000; i++) db.rows.set(token(i), formRow(i));
    let one = 0;
    for (let i = 0; i < 2000; i++) {
      await cache.byToken(db.em, token(i));
      one ||= cache.bytes;
      time.now += 100;
    }
    // 200 seconds of reads with a one-second ttl: at most two ttls' worth are kept.
    expect(cache.bytes).toBeLessThanOrEqual(21 * one);
  });
});
