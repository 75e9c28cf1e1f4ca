import { describe, expect, it } from 'vitest';
import { createAuditStore } from './audit-store.ts';
import type { AuditRecord } from './audit-trail.ts';

const rec = (tenant: string, i: number): AuditRecord => ({
  tenant, actor: 'a', action: 'connection.created', target: { type: 'connection', id: `con_${i}` }, at: new Date(i).toISOString(), requestId: `req_${i}`,
});

describe('audit store', () => {
  it('keeps the newest records per tenant, oldest first, across many trims', () => {
    const store = createAuditStore(3);
    for (let i = 1; i <= 11; i++) store.append(rec('t1', i));
    store.append(rec('t2', 100));
    expect(store.list('t1').map((r) => r.target.id)).toEqual(['con_9', 'con_10', 'con_11']);
    expect(store.list('t2').map((r) => r.target.id)).toEqual(['con_100']);
    expect(store.list('t3')).toEqual([]);
  });

  it('lists a copy and forgets everything on clear', () => {
    const store = createAuditStore(5);
    store.append(rec('t1', 1));
    store.list('t1').pop();
    expect(store.list('t1')).toHaveLength(1);
    store.clear();
    expect(store.list('t1')).toEqual([]);
  });

  it('returns exactly the cap after every append', () => {
    const store = createAuditStore(4);
    for (let i = 1; i <= 30; i++) {
      store.append(rec('t', i));
      const ids = store.list('t').map((r) => Number(r.target.id.slice(4)));
      expect(ids).toEqual(Array.from({ length: Math.min(i, 4) }, (_, k) => i - Math.min(i, 4) + 1 + k));
    }
  });
});
