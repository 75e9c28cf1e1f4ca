import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../simulator/app/serve.ts';
import { runConformance } from '../runner/run.ts';

// A deployment without a control plane the kit can use: a 429 only through a burst the profile allows.
describe('rate-limit.retry-after without an admin token', () => {
  let sim: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    sim = await serve({ port: 0, rateLimit: { limit: 30, windowSeconds: 60 } });
  });
  afterAll(() => sim.close());

  const retryAfter = async (rateLimitBurst: { maxCalls: number; maxMillis: number } | null) => {
    const result = await runConformance({
      baseUrl: sim.baseUrl,
      token: sim.token,
      tenant: sim.tenant,
      grep: /^rate-limit\.retry-after$/,
      deploymentProfile: { rateLimitBurst },
    });
    const r = result.results.find((x) => x.check.name === 'rate-limit.retry-after');
    return { status: r?.status, reason: r?.reason, failures: r?.failures };
  };

  it('is skipped, naming rateLimitBurst, when the profile allows no burst (the kit never floods)', async () => {
    const r = await retryAfter(null);
    expect(r.status).toBe('skip');
    expect(r.reason).toMatch(/rateLimitBurst: null/);
  });

  it('is skipped when the allowed burst stays under the limit', async () => {
    const r = await retryAfter({ maxCalls: 10, maxMillis: 10_000 });
    expect(r.status).toBe('skip');
    expect(r.reason).toMatch(/rateLimitBurst: 10 calls/);
  });

  it('judges the 429 a burst within the profile provokes', async () => {
    const r = await retryAfter({ maxCalls: 200, maxMillis: 10_000 });
    expect(r).toMatchObject({ status: 'pass', failures: [] });
  });

  it('rate-limit.retry-after-seconds: a long window whose calls stay refused passes (no false reading of a long wait)', async () => {
    // A 10-minute window: Retry-After about 600 s; the kit looks for an accepted call for 6 s (a hundredth).
    const long = await serve({ port: 0, rateLimit: { limit: 30, windowSeconds: 600 } });
    const result = await runConformance({
      baseUrl: long.baseUrl,
      token: long.token,
      tenant: long.tenant,
      grep: /^rate-limit\.retry-after(-seconds)?$/,
      deploymentProfile: { rateLimitBurst: { maxCalls: 200, maxMillis: 10_000 } },
    }).finally(() => long.close());
    const r = result.results.find((x) => x.check.name === 'rate-limit.retry-after-seconds');
    expect(r).toMatchObject({ status: 'pass', failures: [] });
    expect(r?.notes.join(' ')).toMatch(/no call accepted within 6 s of a Retry-After of (59\d|600) s/);
    // One burst for both checks: the 429 is provoked once per run.
    expect(result.results.find((x) => x.check.name === 'rate-limit.retry-after')?.status).toBe('pass');
  }, 60_000);

  it('runs the burst after every other check and the cleanups, so none of them meets the window it spends', async () => {
    // A fresh window (the tests above spent the shared one).
    const fresh = await serve({ port: 0, rateLimit: { limit: 30, windowSeconds: 60 } });
    const started: string[] = [];
    const result = await runConformance({
      onEvent: (e) => void (e.type === 'check-start' && started.push(e.check.name)),
      baseUrl: fresh.baseUrl,
      token: fresh.token,
      tenant: fresh.tenant,
      profile: 'full',
      grep: /^rate-limit\.retry-after$|^connections\.schema$|^generated\.created-listed$/,
      deploymentProfile: { rateLimitBurst: { maxCalls: 200, maxMillis: 10_000 } },
    }).finally(() => fresh.close());
    expect(started).toEqual(['connections.schema', 'generated.created-listed', 'rate-limit.retry-after']);
    expect(result.results.every((r) => r.status === 'pass')).toBe(true);
  });
});
