// Round 9: the simulator and the hostile proxy in front of it, shared by the kit attack files, and the
// assertions every hostile run must pass (the kit finished in its process, within memory, with no crash).
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type RunningServer, serve } from '../../app/serve.ts';
import { BACKEND } from './attacks-round7-helpers.ts';
import { type ChildRun, closeKitWorker, type Hostile, hostileProxy } from './attacks-round9-hostile.ts';

export const env: { sim?: RunningServer; h?: Hostile } = {};

export function useHostile() {
  beforeAll(async () => {
    env.sim = await serve({ port: 0, rateLimit: false, runs: { max: 40 } });
    env.h = await hostileProxy(env.sim.baseUrl);
  });
  afterEach(() => {
    if (env.h) {
      env.h.attack = () => false;
      env.h.seen.length = 0;
    }
  });
  afterAll(async () => {
    closeKitWorker();
    await env.h?.close();
    await env.sim?.close();
  });
}

export const hostile = () => {
  if (!env.h) throw new Error('useHostile() first');
  return env.h;
};

/** Kit options against the hostile proxy with client credentials (the kit gets its own token). */
export const kitOptions = (extra: Record<string, unknown> = {}) => ({
  baseUrl: hostile().url,
  tenant: env.sim?.tenant,
  clientId: BACKEND.id,
  clientSecret: BACKEND.secret,
  timeoutMs: 3000,
  concurrency: 2,
  ...extra,
});

/** Growth of resident memory the kit may show while a hostile deployment floods it. */
export const MAX_GROWTH_MB = 300;

/** The kit finished by itself (not killed, no exception out of runConformance), within memory. */
export function finishedBounded(run: ChildRun, maxMs: number, maxGrowthMb = MAX_GROWTH_MB) {
  const why = `${run.stdout}\n${run.stderr}`;
  expect(run.killed, `killed after ${run.ms} ms: ${why}`).toBe(false);
  expect(run.result, why).toBeDefined();
  const r = run.result;
  if (!r) return;
  expect(r.peakRssMb - r.baseRssMb, `peak ${r.peakRssMb} MB from ${r.baseRssMb} MB`).toBeLessThan(maxGrowthMb);
  expect(run.ms).toBeLessThan(maxMs);
  expect(run.stderr).not.toMatch(/\n\s+at .*\(/);
  // A hostile answer is judged (a failed check, exit 1) or refused (exit 2): never a fault of the kit.
  const faults = (r.results as { name: string; errorKind?: string; error?: string }[]).filter(
    (c) => c.errorKind === 'fault',
  );
  expect(faults, JSON.stringify(faults)).toEqual([]);
  return r;
}
