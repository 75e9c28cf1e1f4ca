import { describe, expect, it } from 'vitest';
import type { ReceiverRecord } from './ports/receivers.ts';
import { createWebhookReceiverStore } from './webhook-receivers.ts';

let n = 0;
const receiver = (tenant: string, events: string[]): ReceiverRecord => ({
  id: `wh_${++n}`,
  tenant,
  url: `http://127.0.0.1:9/${n}`,
  events,
  secret: `whsec_${n}`,
  createdAt: '2026-11-25T00:00:00.000Z',
});

describe('webhook receivers repository (memory)', () => {
  it('keeps tenants apart: get, list, count per tenant, subscribers of an event, remove', () => {
    const repo = createWebhookReceiverStore();
    const a = receiver('t1', ['order.paid']);
    const b = receiver('t1', ['order.created']);
    const c = receiver('t2', ['order.paid']);
    for (const r of [a, b, c]) repo.insert(r);
    expect(repo.get('t1', a.id)).toEqual(a);
    expect(repo.get('t2', a.id)).toBeUndefined();
    expect(repo.list('t1')).toEqual([a, b]);
    expect(repo.countFor('t1')).toBe(2);
    expect(repo.subscribedTo('t1', 'order.paid')).toEqual([a]);
    expect(repo.remove('t2', a.id)).toBe(false);
    expect(repo.remove('t1', a.id)).toBe(true);
    expect(repo.remove('t1', a.id)).toBe(false);
    expect(repo.count()).toBe(2);
    repo.clear();
    expect(repo.count()).toBe(0);
  });
});
