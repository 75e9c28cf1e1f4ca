// The validity period of an idempotency key is not shown: a deployment that forgets keys within a run is
// a legal choice, and the late replay check says so instead of failing a MUST.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve } from '../../simulator/app/serve.ts';
import { runConformance } from '../runner/run.ts';

let sim: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  sim = await serve({ port: 0, rateLimit: false, idempotency: { ttlSeconds: 1 } });
});
afterAll(() => sim.close());

it('idempotency.replay-late skips, naming the validity period, when keys live 1 s', { timeout: 60_000 }, async () => {
  const run = await runConformance({
    baseUrl: sim.baseUrl,
    token: sim.token,
    tenant: sim.tenant,
    profile: 'full',
    grep: /^idempotency\.replay-late$/,
  });
  const r = run.results.find((x) => x.check.name === 'idempotency.replay-late');
  expect(r?.status).toBe('skip');
  expect(r?.reason).toMatch(/not remembered until the run's end .* validity period is not shown/);
});
