import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDeliveryLog, type Delivery } from '../delivery-log.ts';
import type { DeliveryLogRepository } from '../ports/deliveries.ts';
import { createSnapshotPersistence } from '../redis/snapshot-persistence.ts';
import { durableDeliveries } from './durable-deliveries.ts';
import { memoryOnly } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';
import { openSqlitePersistence } from './sqlite-persistence.ts';

let n = 0;
const delivery = (receiverId: string, status: Delivery['status'] = 'pending'): Delivery => {
  const at = `2026-11-25T00:00:${String(++n).padStart(2, '0')}.000Z`;
  return {
    id: `dlv_${n}`,
    receiverId,
    tenant: 't1',
    eventId: `evt_${n}`,
    eventType: 'order.paid',
    url: 'http://127.0.0.1:9/hook',
    status,
    attempts: [],
    sequences: 1,
    createdAt: at,
    updatedAt: at,
    body: '{}',
  };
};

describe('durableDeliveries', () => {
  it('answers the log itself with nothing pending when nothing is durable', () => {
    const log = createDeliveryLog();
    const durable = durableDeliveries(log, memoryOnly);
    expect(durable).toBe(log);
    expect(durable.pendingAtStart).toEqual([]);
  });

  it('writes through to SQLite, loads oldest first under the cap, and lists what was left pending', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-durable-deliveries-'));
    try {
      const first = openSqlitePersistence(dir);
      const log = durableDeliveries(createDeliveryLog({ maxPerReceiver: 2 }), first);
      const dropped = delivery('wh_1');
      const done = delivery('wh_1');
      const pending = delivery('wh_1');
      const gone = delivery('wh_2');
      for (const d of [dropped, done, pending, gone]) log.insert(d);
      expect(log.update({ ...done, status: 'succeeded' })).toBe(true);
      log.removeReceiver('wh_2');
      first.close();
      const second = openSqlitePersistence(dir);
      // The dropped delivery is still stored (the cap is the log's); loading drops it again, so it is not resumed.
      const again = durableDeliveries(createDeliveryLog({ maxPerReceiver: 2 }), second);
      expect((again.listByReceiver('wh_1') as Delivery[]).map((d) => [d.id, d.status])).toEqual([
        [pending.id, 'pending'],
        [done.id, 'succeeded'],
      ]);
      expect(again.get(gone.id)).toBeUndefined();
      expect((again.pendingAtStart as Delivery[]).map((d) => d.id)).toEqual([pending.id]);
      again.clear();
      second.close();
      const third = openSqlitePersistence(dir);
      expect(durableDeliveries(createDeliveryLog(), third).countByReceiver('wh_1')).toBe(0);
      third.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a stored record that is not a delivery', () => {
    const p = createSnapshotPersistence({ records: [['deliveries', [['dlv_x', { id: 'dlv_x' }]]]], logs: [] });
    expect(() => durableDeliveries(createDeliveryLog(), p)).toThrow(PersistenceError);
  });

  it('loads into and writes through a log that answers promises; pendingAtStart then answers a promise', async () => {
    const p = createSnapshotPersistence();
    const stored = delivery('wh_1');
    p.put('deliveries', stored.id, stored);
    const memory = createDeliveryLog();
    const later = <T>(v: T) => new Promise<T>((resolve) => setImmediate(() => resolve(v)));
    const wrapped = Object.fromEntries(
      Object.entries(memory).map(([k, fn]) => [
        k,
        (...a: unknown[]) => later((fn as (...x: unknown[]) => unknown)(...a)),
      ]),
    ) as unknown as DeliveryLogRepository;
    const log = durableDeliveries(wrapped, p);
    expect(log.pendingAtStart).toBeInstanceOf(Promise);
    expect((await log.pendingAtStart).map((d) => d.id)).toEqual([stored.id]);
    await log.update({ ...stored, status: 'failed' });
    expect([...p.entries<Delivery>('deliveries')].map(([, d]) => d.status)).toEqual(['failed']);
    await log.removeReceiver('wh_1');
    expect([...p.entries('deliveries')]).toEqual([]);
  });
});
