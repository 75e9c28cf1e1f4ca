import { describe, expect, it } from 'vitest';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';
import { clientToken } from './oauth-helpers.ts';

/** Runs `body` with other rate-limit settings, then restores settings, counters and clock. */
async function withLimit(t: Target, limit: number, windowSeconds: number, body: () => Promise<void>) {
  const store = t.sandbox.state.rateLimits;
  const before = store.settings();
  store.configure({ limit, windowSeconds });
  try {
    await body();
  } finally {
    store.configure(before);
    t.sandbox.state.clock.reset();
  }
}

export function rateLimitBehaviour(get: () => Target) {
  describe('rate limits', () => {
    const info = '/api/public/v1/info';

    it('every authenticated answer carries X-RateLimit-Limit and X-RateLimit-Remaining; public ones without a token do not', async () => {
      const t = get();
      const api = client(t);
      const token = await clientToken(t, 'svc-harbour-reporting');
      const first = await api.call('GET', info, { token });
      const second = await api.call('GET', info, { token });
      const limit = Number(first.headers.get('x-ratelimit-limit'));
      expect(limit).toBeGreaterThan(0);
      expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
        Number(first.headers.get('x-ratelimit-remaining')) - 1,
      );
      // A failure after authentication still counts and still says so.
      const invalid = await api.call('POST', '/api/public/v1/capabilities', { token, body: { connectorId: 'x' } });
      expectFailure(invalid, 'invalid_request');
      expect(invalid.headers.get('x-ratelimit-remaining')).toBe(
        String(Number(second.headers.get('x-ratelimit-remaining')) - 1),
      );
      const pub = await api.call('GET', '/api/public/v1', { token: false, tenant: false });
      expect(pub.headers.get('x-ratelimit-limit')).toBeNull();
      const anonymous = await api.call('GET', info, { token: false });
      expect(anonymous.headers.get('x-ratelimit-limit')).toBeNull();
    });

    it('over the limit -> 429 rate_limited with Retry-After; the window ends on the simulator clock', async () => {
      const t = get();
      const api = client(t);
      const token = await clientToken(t, 'catalog-reader');
      await withLimit(t, 3, 10, async () => {
        const remaining: string[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await api.call('GET', info, { token });
          expectSuccess(res);
          expect(res.headers.get('x-ratelimit-limit')).toBe('3');
          remaining.push(res.headers.get('x-ratelimit-remaining')!);
        }
        expect(remaining).toEqual(['2', '1', '0']);
        const limited = await api.call('GET', info, { token });
        const err = expectFailure(limited, 'rate_limited');
        expect(err.hint).toMatch(/Retry-After/);
        const retryAfter = Number(limited.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(10);
        expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
        // Another access keeps its own counter.
        expectSuccess(await api.call('GET', info, { token: await clientToken(t, 'svc-harbour-reporting') }));
        t.sandbox.state.clock.advance(retryAfter * 1000);
        const after = await api.call('GET', info, { token });
        expectSuccess(after);
        expect(after.headers.get('x-ratelimit-remaining')).toBe('2');
      });
    });

    it('counts per tenant and per access, exactly under concurrency', async () => {
      const t = get();
      const api = client(t);
      const token = await clientToken(t, 'network-integrator', 'catalog:read');
      await withLimit(t, 5, 60, async () => {
        const calls = await Promise.all(
          Array.from({ length: 12 }, () => api.call('GET', info, { token, tenant: 'harbour-kitchens' })),
        );
        expect(calls.filter((r) => r.status === 200)).toHaveLength(5);
        expect(calls.filter((r) => r.status === 429)).toHaveLength(7);
        const left = calls
          .filter((r) => r.status === 200)
          .map((r) => r.headers.get('x-ratelimit-remaining'))
          .sort();
        expect(left).toEqual(['0', '1', '2', '3', '4']);
        // Same access, another released tenant: its own window.
        expectSuccess(await api.call('GET', info, { token, tenant: 'alpine-bistro' }));
      });
    });
  });
}
