import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, fetch as undiciFetch } from 'undici';
import { serve, type RunningServer } from '../../app/serve.ts';

describe('rate-limit counters under concurrency', () => {
  let s: RunningServer;
  const agent = new Agent({ connections: 100 });
  beforeAll(async () => {
    s = await serve({ port: 0, rateLimit: { limit: 60, windowSeconds: 3600 } });
  });
  afterAll(async () => {
    await agent.close();
    await s.close();
  });

  it('150 concurrent calls against a limit of 60: exactly 60 pass, each Remaining value once, the rest 429', async () => {
    const results = await Promise.all(
      Array.from({ length: 150 }, () =>
        undiciFetch(`${s.baseUrl}/api/public/v1/providers`, {
          dispatcher: agent,
          headers: { authorization: `Bearer ${s.token}`, 'x-service-tenant': s.tenant },
        }).then(async (r) => ({
          status: r.status,
          remaining: r.headers.get('x-ratelimit-remaining'),
          retryAfter: r.headers.get('retry-after'),
          body: await r.text(),
        })),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(60);
    expect(ok.map((r) => Number(r.remaining)).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(90);
    expect(limited.every((r) => Number(r.retryAfter) > 0 && JSON.parse(r.body).error.code === 'rate_limited')).toBe(
      true,
    );
  });
});
