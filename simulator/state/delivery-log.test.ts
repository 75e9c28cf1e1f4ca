import { describe, expect, it } from 'vitest';
import { createDeliveryLog, type Delivery } from './delivery-log.ts';

const delivery = (id: string, receiverId = 'wh_1'): Delivery => ({
  id,
  receiverId,
  tenant: 'harbour-kitchens',
  eventId: `evt_${id}`,
  eventType: 'connection.created',
  url: 'http://127.0.0.1:1/hook',
  status: 'pending',
  attempts: [],
  sequences: 1,
  createdAt: '2026-07-01T00:00:00.000Z',
  updatedAt: '2026-07-01T00:00:00.000Z',
  body: '{}',
});

describe('delivery log', () => {
  it("lists a receiver's deliveries newest first, limited, and keeps receivers apart", () => {
    const log = createDeliveryLog();
    for (const id of ['a', 'b', 'c']) log.insert(delivery(id));
    log.insert(delivery('x', 'wh_2'));
    expect(log.listByReceiver('wh_1').map((d) => d.id)).toEqual(['c', 'b', 'a']);
    expect(log.listByReceiver('wh_1', { limit: 2 }).map((d) => d.id)).toEqual(['c', 'b']);
    expect(log.listByReceiver('wh_2').map((d) => d.id)).toEqual(['x']);
    expect(log.listByReceiver('wh_none')).toEqual([]);
    expect(log.get('b')?.eventId).toBe('evt_b');
    expect(() => log.insert(delivery('a'))).toThrow(/already/);
  });

  it('replaces records on update and drops the oldest beyond the per-receiver cap', () => {
    const log = createDeliveryLog({ maxPerReceiver: 2 });
    log.insert(delivery('a'));
    expect(log.update({ ...delivery('a'), status: 'succeeded' })).toBe(true);
    expect(log.get('a')?.status).toBe('succeeded');
    log.insert(delivery('b'));
    log.insert(delivery('c'));
    expect(log.get('a')).toBeUndefined();
    expect(log.update(delivery('a'))).toBe(false);
    expect(log.countByReceiver('wh_1')).toBe(2);
    expect(log.listByReceiver('wh_1').map((d) => d.id)).toEqual(['c', 'b']);
  });

  it('forgets a removed receiver and everything on clear', () => {
    const log = createDeliveryLog();
    log.insert(delivery('a'));
    log.insert(delivery('b', 'wh_2'));
    log.removeReceiver('wh_1');
    expect(log.get('a')).toBeUndefined();
    expect(log.countByReceiver('wh_1')).toBe(0);
    log.clear();
    expect(log.get('b')).toBeUndefined();
  });
});
