import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';

/**
 * Round 8 at the rules' bounds: stacks whose schedules sit near a threshold (the 120 s retry window,
 * half a token's lifetime), each paired where it helps with the client just across the line.
 */

/** Erlang ferd/backoff `backoff:type(backoff:init(500, 8000), jitter)`: `rand_increment(N) = N + rand(N)`, then doubled, capped. */
const erlangJitter = (random: () => number) => {
  let n = 500;
  return () => {
    const drawn = Math.round(n + random() * n);
    n = Math.min(n * 2, 8_000);
    return drawn;
  };
};

/** aiohttp-retry `ExponentialRetry(attempts=4, start_timeout=0.5, factor=2)`: 0.5 s · 2^n, no jitter. */
const aiohttpExponential = (n: number) => 500 * 2 ** n;
/** aiohttp-retry `JitterRetry(attempts=4, start_timeout=0.5, random_interval_size=0.5)`: that plus uniform(0, 0.5 s). */
const aiohttpJitter = (random: () => number) => (n: number) => 500 * 2 ** n + Math.round(random() * 500);

/** A process calling every `everyMs` for `calls` calls, taking a new `ttlS` token when `renewAtS` of it has passed. */
async function renewingAt(
  t: Parameters<UnnamedClient2['run']>[0],
  o: { ttlS: number; renewAtS: number; everyMs: number; calls: number },
) {
  const sleep = sleeper(t);
  const clock = t.sandbox.state.clock;
  let a = auth(t, undefined, o.ttlS);
  let issued = clock.now();
  for (let i = 0; i < o.calls; i++) {
    if (clock.now() - issued >= o.renewAtS * 1000) {
      a = auth(t, undefined, o.ttlS);
      issued = clock.now();
    }
    ok(`call ${i}`, await get(t, a, READS[i % READS.length]?.[1] ?? '/providers'));
    await sleep(o.everyMs);
  }
}

export const BOUNDS_WELL_BEHAVED_8: UnnamedClient2[] = [
  {
    does: 'is an Erlang service on ferd/backoff (init 500 ms, max 8 s, type jitter: N + rand(N), doubling) retrying three reads through 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(841);
      for (const [route, path] of READS.slice(2, 5)) {
        fault(t, { kind: 'internal', route, count: 3 });
        const next = erlangJitter(random);
        ok(
          path,
          await retrying(
            sleep,
            () => get(t, a, path),
            () => next(),
          ),
        );
        await sleep(10_000);
      }
    },
  },
  {
    does: 'is a Python aiohttp client with aiohttp-retry’s JitterRetry (attempts 4, start 0.5 s, factor 2, random_interval_size 0.5) over four reads through 500s',
    pass: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = aiohttpJitter(seeded(842));
      for (const [route, path] of READS.slice(0, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await retrying(sleep, () => get(t, a, path), wait));
        await sleep(5_000);
      }
    },
  },
  // The 120 s window from the other side: a Quartz job whose retries wait 30 s, 60 s and 110 s (a
  // misfire-tolerant trigger with its own jitter): every retry still counts, and it stays at four.
  {
    does: 'is a Quartz job retrying a create through three 503s after 30 s, 60 s and 110 s (each plus up to 5 s), its key kept in the JobDataMap',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const random = seeded(843);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 0, count: 3 });
      const body = { ...CONNECTION, scopeLabel: 'Trigger Fire Taverna' };
      const waits = [30_000, 60_000, 110_000];
      const r = await retrying(
        sleeper(t),
        () => api(t, a, 'POST', '/connections', { body, key: 'quartz-jdm-4471aa' }),
        (n) => (waits[n] ?? 110_000) + Math.floor(random() * 5_000),
      );
      ok('the create', r);
    },
  },
  // "renewed, not extended": 10-minute tokens taken anew once 51 % of their life has passed (294 s
  // left: less than half), a call every 5 s for 30 minutes.
  {
    does: 'renews its 10-minute tokens once 306 s of them have passed (294 s left, just under half), calling every 5 s for 30 minutes',
    pass: [],
    async run(t) {
      await renewingAt(t, { ttlS: 600, renewAtS: 306, everyMs: 5_000, calls: 360 });
    },
  },
  // The other bound: 90 s tokens renewed with 50 s left (more than half, but not more than 60 s).
  {
    does: 'renews its 90-second tokens with 50 s left (more than half their life, under a minute), calling every 5 s for 10 minutes',
    pass: [],
    async run(t) {
      await renewingAt(t, { ttlS: 90, renewAtS: 40, everyMs: 5_000, calls: 120 });
    },
  },
  // A token cache's window (session 28): 2-minute tokens held 50 s (over a third) and renewed with 70 s left
  // (more than half, more than a minute, but within 5 minutes of expiry) are renewed near expiry.
  {
    does: 'renews its 2-minute tokens with 70 s left after holding them 50 s (over a third of their life), calling every 5 s for 10 minutes',
    pass: [],
    async run(t) {
      await renewingAt(t, { ttlS: 120, renewAtS: 50, everyMs: 5_000, calls: 120 });
    },
  },
];

export const BOUNDS_MISBEHAVING_8: FaultyClient[] = [
  // The same sentence, just across the line: renewed once 294 s have passed (306 s left: more than half).
  {
    does: 'renews its 10-minute tokens once 294 s of them have passed (306 s left, just over half), calling every 5 s for 30 minutes',
    fails: ['auth.token-reused'],
    async run(t) {
      await renewingAt(t, { ttlS: 600, renewAtS: 294, everyMs: 5_000, calls: 360 });
    },
  },
  // Held under a third of their life (35 of 120 s): churn though within a token cache's 5-minute window.
  {
    does: 'renews its 2-minute tokens after 35 s (85 s left: more than half their life and more than a minute, held under a third), calling every 5 s for 10 minutes',
    fails: ['auth.token-reused'],
    async run(t) {
      await renewingAt(t, { ttlS: 120, renewAtS: 35, everyMs: 5_000, calls: 120 });
    },
  },
  {
    does: 'is a Python aiohttp client with aiohttp-retry’s ExponentialRetry defaults (start 0.5 s, factor 2, no jitter) over four reads through 500s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(0, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await retrying(sleep, () => get(t, a, path), aiohttpExponential));
        await sleep(5_000);
      }
    },
  },
  // The 120 s window again: a fifth attempt 115 s after the fourth is still the same operation.
  {
    does: 'is a Quartz job retrying a create through four 503s after 30 s, 60 s, 90 s and 115 s: five attempts under one key',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 0, count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Fifth Fire Taverna' };
      const waits = [30_000, 60_000, 90_000, 115_000];
      const random = seeded(844);
      await retrying(
        sleeper(t),
        () => api(t, a, 'POST', '/connections', { body, key: 'quartz-jdm-5582bb' }),
        (n) => (waits[n] ?? 0) + Math.floor(random() * 3_000),
        { max: 4 },
      );
    },
  },
];
