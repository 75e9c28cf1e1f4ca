import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createConnectionsStore, TransitionError } from './connections-store.ts';
import { createEventBus, type DomainEvent } from './domain-events.ts';

describe('connections store', () => {
  const setup = (delay = 1000) => {
    let now = 10_000;
    const clock = createClock(() => now);
    const events = createEventBus();
    const seen: DomainEvent[] = [];
    events.on((e) => seen.push(e));
    const store = createConnectionsStore({ clock, events, activationDelayMs: delay });
    const input = {
      tenant: 't1',
      connectorId: 'c',
      environment: 'sandbox' as const,
      scopeLabel: 'Venue',
      capabilities: [],
    };
    return { store, seen, input, tick: (ms: number) => (now += ms), caller: { actor: 'a', requestId: 'r' } };
  };

  it('activates pending connections when the clock passes the delay, stamped at that time', () => {
    const { store, seen, input, tick, caller } = setup();
    const c = store.create(input, caller);
    expect(c.state).toBe('pending');
    tick(999);
    expect(store.get('t1', c.id)?.state).toBe('pending');
    tick(1);
    expect(store.get('t1', c.id)?.state).toBe('active');
    expect(seen.map((e) => e.type)).toEqual(['connection.created', 'connection.state_changed']);
    expect(seen[1]).toMatchObject({ actor: 'system', at: 11_000, data: { from: 'pending', to: 'active' } });
  });

  it('activates many pending connections in due order and skips those revoked while pending', () => {
    const { store, seen, input, tick, caller } = setup();
    const a = store.create(input, caller);
    tick(10);
    const b = store.create(input, { ...caller, at: 10_005 });
    const c = store.create(input, caller);
    store.setState(c.id, 'revoked', caller);
    tick(5000);
    expect(store.list('t1').map((x) => x.state)).toEqual(['active', 'active', 'revoked']);
    const activated = seen.filter(
      (e) => e.type === 'connection.state_changed' && (e.data as { to: string }).to === 'active',
    );
    expect(activated.map((e) => [e.target.id, e.at])).toEqual([
      [a.id, 11_000],
      [b.id, 11_005],
    ]);
  });

  it('allows active <-> paused and any -> revoked, nothing out of revoked', () => {
    const { store, input, caller } = setup(0);
    const c = store.create(input, caller);
    expect(store.setState(c.id, 'paused', caller).state).toBe('paused');
    expect(store.setState(c.id, 'active', caller).state).toBe('active');
    expect(store.setState(c.id, 'revoked', caller).state).toBe('revoked');
    expect(() => store.setState(c.id, 'active', caller)).toThrow(TransitionError);
  });

  it("finds a tenant's connections to one connector in one environment, oldest first", () => {
    const { store, input, caller } = setup(0);
    const a = store.create(input, caller);
    store.create({ ...input, environment: 'production' }, caller);
    store.create({ ...input, connectorId: 'other' }, caller);
    store.create({ ...input, tenant: 't2' }, caller);
    const b = store.create(input, caller);
    store.setState(b.id, 'paused', caller);
    expect(store.forConnector('t1', 'c', 'sandbox').map((c) => [c.id, c.state])).toEqual([
      [a.id, 'active'],
      [b.id, 'paused'],
    ]);
    expect(store.forConnector('t2', 'c', 'production')).toEqual([]);
    store.clear();
    expect(store.forConnector('t1', 'c', 'sandbox')).toEqual([]);
  });

  it('keeps tenants apart and returns copies', () => {
    const { store, input, caller } = setup(0);
    const c = store.create(input, caller);
    expect(store.get('t2', c.id)).toBeUndefined();
    expect(store.list('t2')).toEqual([]);
    store.get('t1', c.id)!.state = 'hacked';
    expect(store.get('t1', c.id)!.state).toBe('active');
  });
});
