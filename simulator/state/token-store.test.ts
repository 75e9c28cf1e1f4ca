import { describe, expect, it } from 'vitest';
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
