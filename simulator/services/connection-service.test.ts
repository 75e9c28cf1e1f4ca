import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import type { Timeline } from '../lib/timeline.ts';
import { createConnectionsStore } from '../state/connections-store.ts';
import { createEventBus, type DomainEvent } from '../state/domain-events.ts';
import { createConnectionService, TransitionError } from './connection-service.ts';
import { networkLike } from '../test-support/network-like.ts';

/** A timeline the test fires by hand: which tasks are armed, and running those due. */
function fakeTimeline() {
  const tasks: { due: number; fn: () => void; live: boolean }[] = [];
  const timeline: Timeline = {
    at(due, fn) {
      const task = { due, fn, live: true };
      tasks.push(task);
      return () => {
        task.live = false;
      };
    },
    size: () => tasks.filter((t) => t.live).length,
    close() {},
  };
  const armed = () => tasks.filter((t) => t.live).map((t) => t.due);
  const fire = (now: number) => {
    for (const t of tasks.filter((x) => x.live && x.due <= now)) {
      t.live = false;
      t.fn();
    }
  };
  return { timeline, armed, fire };
}

const setup = (delay = 1000, opts: { timeline?: Timeline; async?: boolean; applyDueOnRead?: boolean } = {}) => {
  const { async, ...rest } = opts;
  let now = 10_000;
  const clock = createClock(() => now);
  const events = createEventBus();
  const seen: DomainEvent[] = [];
  events.on((e) => seen.push(e));
  const memory = createConnectionsStore();
  const repository = async ? networkLike(memory) : memory;
  const service = createConnectionService({ repository, clock, events, activationDelayMs: delay, ...rest });
  const input = {
    tenant: 't1',
    connectorId: 'c',
    environment: 'sandbox' as const,
    scopeLabel: 'Venue',
    capabilities: [],
  };
  return { service, seen, input, tick: (ms: number) => (now += ms), caller: { actor: 'a', requestId: 'r' } };
};

describe('connection service', () => {
  it('creates pending connections that a read after the delay finds active, stamped at their due time', () => {
    const { service, seen, input, tick, caller } = setup();
    const c = service.create(input, caller);
    if (c instanceof Promise) throw new Error('a memory repository answers at once');
    expect(c.state).toBe('pending');
    tick(999);
    expect(service.get('t1', c.id)).toMatchObject({ state: 'pending' });
    tick(1);
    expect(service.get('t1', c.id)).toMatchObject({ state: 'active' });
    expect(seen.map((e) => e.type)).toEqual(['connection.created', 'connection.state_changed']);
    expect(seen[0]).toMatchObject({ actor: 'a', requestId: 'r', at: 10_000, target: { id: c.id } });
    expect(seen[1]).toMatchObject({ actor: 'system', at: 11_000, data: { from: 'pending', to: 'active' } });
  });

  it('answers and announces the kept record itself, which later transitions never change', () => {
    const { service, seen, input, tick, caller } = setup();
    const c = service.create(input, caller);
    if (c instanceof Promise) throw new Error('a memory repository answers at once');
    const announced = seen[0]?.data.connection;
    // One record for the answer and the event (and the idempotency record that keeps the answer).
    expect(announced).toBe(c);
    tick(1000);
    expect(service.get('t1', c.id)).toMatchObject({ state: 'active' });
    service.setState(c.id, 'paused', caller);
    expect(c).toMatchObject({ state: 'pending', updatedAt: c.createdAt });
    expect(seen[1]?.data.connection).toMatchObject({ state: 'active' });
    expect(seen[2]?.data.connection).toMatchObject({ state: 'paused' });
    expect(() => {
      (c as { state: string }).state = 'revoked';
    }).toThrow(TypeError);
  });

  it('creates active connections at once with no delay, and announces no transition', () => {
    const { service, seen, input, caller } = setup(0);
    expect(service.create(input, caller)).toMatchObject({ state: 'active' });
    expect(seen.map((e) => e.type)).toEqual(['connection.created']);
  });

  it('activates in due order on the timeline with no read, and skips those revoked while pending', () => {
    const { timeline, armed, fire } = fakeTimeline();
    const { service, seen, input, tick, caller } = setup(1000, { timeline });
    const a = service.create(input, caller) as { id: string };
    tick(10);
    const b = service.create(input, { ...caller, at: 10_005 }) as { id: string };
    const c = service.create(input, caller) as { id: string };
    // One task, for the earliest activation; later ones do not arm another.
    expect(armed()).toEqual([11_000]);
    service.setState(c.id, 'revoked', caller);
    tick(990);
    fire(11_000);
    // a fell due; b is next, so the service re-armed for it.
    expect(armed()).toEqual([11_005]);
    tick(10);
    fire(11_010);
    expect(armed()).toEqual([]);
    const activated = seen.filter((e) => e.type === 'connection.state_changed' && e.data.to === 'active');
    expect(activated.map((e) => [e.target.id, e.at])).toEqual([
      [a.id, 11_000],
      [b.id, 11_005],
    ]);
    expect((service.list('t1') as { state: string }[]).map((x) => x.state)).toEqual(['active', 'active', 'revoked']);
  });

  it('arms an earlier activation in place of a later one, and clear() disarms', () => {
    const { timeline, armed } = fakeTimeline();
    const { service, input, caller } = setup(1000, { timeline });
    service.create(input, { ...caller, at: 20_000 });
    service.create(input, { ...caller, at: 15_000 });
    expect(armed()).toEqual([16_000]);
    service.clear();
    expect(armed()).toEqual([]);
    expect(service.count()).toBe(0);
  });

  it('allows active <-> paused and any -> revoked, nothing out of revoked; names unknown ids', () => {
    const { service, seen, input, caller } = setup(0);
    const c = service.create(input, caller) as { id: string };
    expect(service.setState(c.id, 'paused', caller)).toMatchObject({ state: 'paused' });
    expect(service.setState(c.id, 'paused', caller)).toMatchObject({ state: 'paused' });
    expect(service.setState(c.id, 'active', caller)).toMatchObject({ state: 'active' });
    expect(service.setState(c.id, 'revoked', caller)).toMatchObject({ state: 'revoked' });
    expect(() => service.setState(c.id, 'active', caller)).toThrow(TransitionError);
    expect(() => service.setState(c.id, 'active', caller)).toThrow('a revoked connection cannot become active');
    expect(() => service.setState('con_missing', 'paused', caller)).toThrow(RangeError);
    // Setting the state it already has announces nothing.
    const moves = seen.filter((e) => e.type === 'connection.state_changed').map((e) => [e.data.from, e.data.to]);
    expect(moves).toEqual([
      ['active', 'paused'],
      ['paused', 'active'],
      ['active', 'revoked'],
    ]);
  });

  it('keeps tenants apart and hands out copies (the event keeps its own)', () => {
    const { service, seen, input, caller } = setup(0);
    const c = service.create(input, caller) as { id: string };
    expect(service.get('t2', c.id)).toBeUndefined();
    expect(service.list('t2')).toEqual([]);
    (service.get('t1', c.id) as { state: string }).state = 'hacked';
    (service.setState(c.id, 'paused', caller) as { state: string }).state = 'hacked';
    expect(service.get('t1', c.id)).toMatchObject({ state: 'paused' });
    expect(seen[1]?.data.connection).toMatchObject({ state: 'paused' });
  });

  it('shared sandbox: reads leave due transitions to applyDue, which applies them once', () => {
    const { service, seen, input, tick, caller } = setup(1000, { applyDueOnRead: false });
    const c = service.create(input, caller) as { id: string };
    tick(1000);
    expect(service.nextDue()).toBe(11_000);
    expect(service.get('t1', c.id)).toMatchObject({ state: 'pending' });
    service.applyDue();
    service.applyDue();
    expect(service.get('t1', c.id)).toMatchObject({ state: 'active' });
    expect(service.nextDue()).toBeUndefined();
    expect(seen.filter((e) => e.type === 'connection.state_changed')).toHaveLength(1);
  });

  it('works the same over a repository that answers with promises', async () => {
    const { timeline, armed, fire } = fakeTimeline();
    const { service, seen, input, tick, caller } = setup(1000, { timeline, async: true });
    const created = service.create(input, caller);
    expect(created).toBeInstanceOf(Promise);
    const c = await created;
    expect(c.state).toBe('pending');
    expect(armed()).toEqual([11_000]);
    tick(1000);
    fire(11_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(await service.get('t1', c.id)).toMatchObject({ state: 'active' });
    expect(await service.setState(c.id, 'paused', caller)).toMatchObject({ state: 'paused' });
    await expect(service.setState(c.id, 'pending', caller)).rejects.toThrow(TransitionError);
    await expect(service.setState('con_missing', 'paused', caller)).rejects.toThrow(RangeError);
    expect(await service.forConnector('t1', 'c', 'sandbox')).toHaveLength(1);
    expect(seen.map((e) => e.type)).toEqual([
      'connection.created',
      'connection.state_changed',
      'connection.state_changed',
    ]);
  });
});
