import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createRateLimitStore } from '../state/rate-limit-store.ts';
import { networkLike } from '../test-support/network-like.ts';
import { createRateLimitService, MAX_RATE_LIMIT_KEYS, rateLimitKey, resetSecondsOf } from './rate-limit-service.ts';

describe.each([
  ['the memory repository', false],
  ['a repository answering promises', true],
])('rate-limit service over %s', (_name, async) => {
  const setup = (limit = 2, windowSeconds = 10) => {
    const clock = { now: 1_000_000 };
    const memory = createRateLimitStore();
    const limits = createRateLimitService({
      repository: async ? networkLike(memory) : memory,
      clock: createClock(() => clock.now),
      initial: { limit, windowSeconds },
    });
    return { limits, clock, memory };
  };

  it('answers at once from memory, with a promise otherwise; nothing when limiting is off', async () => {
    const { limits } = setup();
    expect(limits.hit('k') instanceof Promise).toBe(async);
    await limits.configure(false);
    expect(limits.hit('k')).toBeUndefined();
  });

  it('counts calls in a fixed window and refuses past the limit with the seconds left', async () => {
    const { limits, clock } = setup(2, 10);
    expect(await limits.hit('k')).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 10 });
    clock.now += 2_500;
    expect(await limits.hit('k')).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 8 });
    expect(await limits.hit('k')).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 8 });
    expect((await limits.hit('other'))?.allowed).toBe(true);
    clock.now += 7_500; // the window ends
    expect(await limits.hit('k')).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 10 });
  });

  it('starts a new window when the clock moved back; new settings restart every counter', async () => {
    const { limits, clock } = setup(1, 60);
    expect((await limits.hit('k'))?.allowed).toBe(true);
    expect((await limits.hit('k'))?.allowed).toBe(false);
    clock.now -= 5_000;
    expect((await limits.hit('k'))?.allowed).toBe(true);
    await limits.configure({ limit: 3, windowSeconds: 1 });
    expect(await limits.hit('k')).toMatchObject({ allowed: true, remaining: 2, limit: 3 });
  });

  it('drops ended windows before keeping a key past the bound', async () => {
    const { limits, clock, memory } = setup(5, 1);
    for (let i = 0; i < MAX_RATE_LIMIT_KEYS; i++) memory.put(`old-${i}`, clock.now, 1);
    clock.now += 1_000;
    memory.put('live', clock.now, 1);
    await limits.hit('new');
    expect(memory.size()).toBe(2);
  });
});

describe('rate-limit rules', () => {
  it('keys a call by client, tenant and environment; anonymous calls are not counted', () => {
    const access = { tenant: 't1', token: { clientId: 'c1', environment: 'sandbox' } };
    expect(rateLimitKey(access)).toBe('c1|t1|sandbox');
    expect(rateLimitKey(undefined)).toBeUndefined();
  });
  it('Retry-After is the whole seconds left of the window, at least 1', () => {
    expect(resetSecondsOf(0, 10_000, 2_500)).toBe(8);
    expect(resetSecondsOf(0, 10_000, 9_999)).toBe(1);
    expect(resetSecondsOf(0, 10_000, 10_000)).toBe(1);
  });
});
