import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReceiverRecord, ReceiverRepository } from '../ports/receivers.ts';
import { createSnapshotPersistence } from '../redis/snapshot-persistence.ts';
import { createWebhookReceiverStore } from '../webhook-receivers.ts';
import { durableReceivers } from './durable-receivers.ts';
import { memoryOnly } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';
import { openSqlitePersistence } from './sqlite-persistence.ts';

let n = 0;
const receiver = (tenant: string, events: string[]): ReceiverRecord => ({
  id: `wh_${++n}`,
  tenant,
  url: `http://127.0.0.1:9/${n}`,
  events,
  secret: `whsec_${n}`,
  createdAt: '2026-11-25T00:00:00.000Z',
});

describe('durableReceivers', () => {
  it('answers the repository itself when nothing is durable', () => {
    const repository = createWebhookReceiverStore();
    expect(durableReceivers(repository, memoryOnly)).toBe(repository);
  });

  it('writes through to SQLite and loads receivers back; a removal and a clear last too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-durable-receivers-'));
    try {
      const first = openSqlitePersistence(dir);
      const repo = durableReceivers(createWebhookReceiverStore(), first);
      const kept = receiver('t1', ['order.paid']);
      const removed = receiver('t1', ['order.paid']);
      repo.insert(kept);
      repo.insert(removed);
      expect(repo.remove('t2', removed.id)).toBe(false);
      expect(repo.remove('t1', removed.id)).toBe(true);
      first.close();
      const second = openSqlitePersistence(dir);
      const again = durableReceivers(createWebhookReceiverStore(), second);
      expect(again.list('t1')).toEqual([kept]);
      expect(again.subscribedTo('t1', 'order.paid')).toEqual([kept]);
      again.clear();
      second.close();
      const third = openSqlitePersistence(dir);
      expect(durableReceivers(createWebhookReceiverStore(), third).count()).toBe(0);
      third.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a stored record that is not a receiver', () => {
    const p = createSnapshotPersistence({ records: [['webhooks', [['wh_x', { id: 'wh_x' }]]]], logs: [] });
    expect(() => durableReceivers(createWebhookReceiverStore(), p)).toThrow(PersistenceError);
  });

  it('loads into and writes through a repository that answers promises', async () => {
    const p = createSnapshotPersistence();
    const stored = receiver('t1', ['order.paid']);
    p.put('webhooks', stored.id, stored);
    const memory = createWebhookReceiverStore();
    const later = <T>(v: T) => new Promise<T>((resolve) => setImmediate(() => resolve(v)));
    const wrapped = Object.fromEntries(
      Object.entries(memory).map(([k, fn]) => [
        k,
        (...a: unknown[]) => later((fn as (...x: unknown[]) => unknown)(...a)),
      ]),
    ) as unknown as ReceiverRepository;
    const repo = durableReceivers(wrapped, p);
    expect(await repo.get('t1', stored.id)).toEqual(stored);
    const added = receiver('t1', ['order.created']);
    await repo.insert(added);
    expect(await repo.remove('t1', stored.id)).toBe(true);
    expect([...p.entries('webhooks')].map(([id]) => id)).toEqual([added.id]);
  });
});
