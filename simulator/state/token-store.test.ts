import { describe, expect, it, vi } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createTokenStore } from './token-store.ts';

describe('token store', () => {
  it('issues unguessable tokens that it keeps only as hashes', () => {
    const clock = createClock(() => 1_000_000);
    const store = createTokenStore(clock, 900);
    const a = store.issue({ clientId: 'c', tenants: ['t'], scopes: ['catalog:read'], environment: 'sandbox' });
    const b = store.issue({ clientId: 'c', tenants: ['t'], scopes: ['catalog:read'], environment: 'sandbox' });
    expect(a.token).not.toBe(b.token);
    expect(a.token.length).toBeGreaterThan(40);
    expect(a.record.expiresAt).toBe(1_000_000 + 900_000);
    expect(store.lookup(a.token)?.clientId).toBe('c');
    expect(store.lookup('ncs_at_guess')).toBeUndefined();
    expect(store.revoke(a.token)).toBe(true);
    expect(store.lookup(a.token)).toBeUndefined();
  });
  it('the clock moves forward only', () => {
    const clock = createClock(() => 0);
    clock.advance(5);
    expect(clock.now()).toBe(5);
    expect(() => clock.advance(-1)).toThrow();
    clock.reset();
    expect(clock.now()).toBe(0);
  });
});

describe('token store families', () => {
  it('revokes every token of one grant and nothing else', () => {
    const store = createTokenStore(
      createClock(() => 0),
      900,
    );
    const grant = { clientId: 'c', tenants: ['t'], scopes: ['catalog:read' as const], environment: 'sandbox' as const };
    const a = store.issue({ ...grant, family: 'f1' });
    const b = store.issue({ ...grant, family: 'f1' });
    const c = store.issue({ ...grant, family: 'f2' });
    const d = store.issue(grant);
    expect(store.revokeFamily('f1')).toBe(2);
    expect(store.lookup(a.token)).toBeUndefined();
    expect(store.lookup(b.token)).toBeUndefined();
    expect(store.lookup(c.token)?.family).toBe('f2');
    expect(store.lookup(d.token)).toBeDefined();
  });
});

describe('token store bounds', () => {
  const grant = (clientId: string) => ({
    clientId,
    tenants: ['t'],
    scopes: ['catalog:read' as const],
    environment: 'sandbox' as const,
  });

  it('keeps at most maxPerClient tokens per client: the oldest go first, other clients keep theirs', () => {
    const store = createTokenStore(
      createClock(() => 0),
      900,
      undefined,
      3,
    );
    const c = Array.from({ length: 5 }, () => store.issue(grant('c')));
    const d = Array.from({ length: 2 }, () => store.issue(grant('d')));
    let ended = 0;
    const fresh = store.issue(grant('e'));
    store.watch(fresh.record, () => ended++);
    expect(c.map((t) => store.lookup(t.token) !== undefined)).toEqual([false, false, true, true, true]);
    expect(d.every((t) => store.lookup(t.token))).toBe(true);
    // A dropped token ends what watches it (its streams), like a revoked one.
    for (let i = 0; i < 3; i++) store.issue(grant('e'));
    expect(store.lookup(fresh.token)).toBeUndefined();
    expect(ended).toBe(1);
    store.revokeClient('c');
    expect(c.every((t) => store.lookup(t.token) === undefined)).toBe(true);
  });

  it('does not walk every token on every issue once there are many (the sweep is amortised)', () => {
    const store = createTokenStore(createClock(() => 0));
    // 6 clients x 10,000 = 60,000 live tokens: past the sweep floor, none expired.
    for (let i = 0; i < 50_001; i++) store.issue(grant(`c${i % 6}`));
    const walk = vi.spyOn(Map.prototype, 'entries');
    const iterate = vi.spyOn(Map.prototype, Symbol.iterator);
    try {
      for (let i = 0; i < 5_000; i++) store.issue(grant(`c${i % 6}`));
      // Before: a full sweep (a walk over 50,000+ tokens) on each of the 5,000 issues.
      expect(walk.mock.calls.length + iterate.mock.calls.length).toBeLessThan(5);
    } finally {
      walk.mockRestore();
      iterate.mockRestore();
    }
  });
});
