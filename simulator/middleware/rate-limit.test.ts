import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/api-error.ts';
import type { ContextWith } from '../core/step.ts';
import { ok as okReply, type Reply } from '../core/reply.ts';
import { createClock } from '../lib/clock.ts';
import { createRateLimitService, RATE_LIMIT_PRESETS } from '../services/rate-limit-service.ts';
import { createRateLimitStore } from '../state/rate-limit-store.ts';
import type { AccessToken } from '../state/token-store.ts';
import { rateLimitStep } from './rate-limit.ts';

const token = (clientId: string, environment: AccessToken['environment'] = 'sandbox'): AccessToken => ({
  clientId,
  tenants: ['t1', 't2'],
  scopes: ['catalog:read'],
  environment,
  issuedAt: 0,
  expiresAt: 1e15,
});

function ctxFor(access?: { token: AccessToken; tenant: string }): ContextWith<'access'> {
  return {
    req: { method: 'GET', path: '/x', query: {}, headers: {} },
    requestId: 'req_1',
    at: 0,
    version: '2026-07-01',
    params: {},
    query: {},
    body: undefined,
    responseHeaders: {},
    access,
  };
}

const ok: () => Promise<Reply> = async () => okReply({});

describe('rate limit middleware', () => {
  function setup(limit = 2, windowSeconds = 10) {
    let now = 1_000_000;
    const clock = createClock(() => now);
    const store = createRateLimitService({
      repository: createRateLimitStore(),
      clock,
      initial: { limit, windowSeconds },
    });
    const middleware = rateLimitStep(store).run;
    // Middleware may throw synchronously (the core awaits inside try); a promise keeps the tests uniform.
    const mw = (ctx: ContextWith<'access'>, next: typeof ok) => Promise.resolve().then(() => middleware(ctx, next));
    return { store, mw, tick: (ms: number) => (now += ms) };
  }

  it('sets the headers and refuses the call over the limit with Retry-After', async () => {
    const { mw, tick } = setup(2, 10);
    const a = ctxFor({ token: token('c'), tenant: 't1' });
    await mw(a, ok);
    expect(a.responseHeaders).toEqual({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1' });
    await mw(ctxFor({ token: token('c'), tenant: 't1' }), ok);
    tick(2_500);
    const over = ctxFor({ token: token('c'), tenant: 't1' });
    const err = await mw(over, ok).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('rate_limited');
    expect((err as ApiError).headers['retry-after']).toBe('8');
    expect(over.responseHeaders['x-ratelimit-remaining']).toBe('0');
    tick(7_500);
    const next = ctxFor({ token: token('c'), tenant: 't1' });
    await mw(next, ok);
    expect(next.responseHeaders['x-ratelimit-remaining']).toBe('1');
  });

  it('keys by client, tenant and environment', async () => {
    const { mw } = setup(1, 60);
    await mw(ctxFor({ token: token('c'), tenant: 't1' }), ok);
    await mw(ctxFor({ token: token('c'), tenant: 't2' }), ok);
    await mw(ctxFor({ token: token('d'), tenant: 't1' }), ok);
    await mw(ctxFor({ token: token('c', 'pilot'), tenant: 't1' }), ok);
    await expect(mw(ctxFor({ token: token('c'), tenant: 't1' }), ok)).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('leaves calls without an access alone, and does nothing when switched off', async () => {
    const { mw, store } = setup(1, 60);
    const anon = ctxFor();
    await mw(anon, ok);
    await mw(anon, ok);
    expect(anon.responseHeaders).toEqual({});
    store.configure(false);
    const c = ctxFor({ token: token('c'), tenant: 't1' });
    for (let i = 0; i < 5; i++) await mw(c, ok);
    expect(c.responseHeaders).toEqual({});
  });

  it('starts a new window when the clock was reset backwards; new settings restart the counters', async () => {
    const { store, tick } = setup(1, 60);
    expect((await store.hit('k'))?.allowed).toBe(true);
    expect((await store.hit('k'))?.allowed).toBe(false);
    tick(-5_000);
    expect((await store.hit('k'))?.allowed).toBe(true);
    store.configure({ limit: 3, windowSeconds: 1 });
    expect(await store.hit('k')).toMatchObject({ allowed: true, remaining: 2, limit: 3 });
  });

  it('refuses nonsense settings and documents its presets', () => {
    const clock = createClock();
    expect(() =>
      createRateLimitService({ repository: createRateLimitStore(), clock, initial: { limit: 0, windowSeconds: 1 } }),
    ).toThrow(RangeError);
    expect(() =>
      createRateLimitService({ repository: createRateLimitStore(), clock, initial: { limit: 1, windowSeconds: 0.5 } }),
    ).toThrow(/window/);
    expect(RATE_LIMIT_PRESETS.default).toEqual({ limit: 1200, windowSeconds: 60 });
    expect(RATE_LIMIT_PRESETS.low).toEqual({ limit: 5, windowSeconds: 10 });
  });
});
