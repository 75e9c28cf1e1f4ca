import type { Target } from '../harness.ts';
import { type Auth, auth, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';
import { PATHS } from './unnamed24-kit.ts';

/**
 * Round 24, more probes of the wait rules: full jitter whose cap is reached at once (waits drawn from the
 * same range every time) beside a real full jitter, a client's own immediate retries after a server-set
 * wait, and a poller that meets a 429.
 */
const ROUTES = ['listProviders', 'listConnectors', 'listCapabilities', 'listConnections', 'listProviders'];

/** Five reads (with `a`, or a token of their own), each through `failures` 500s, retried on `wait` up to `max` times, 5 s apart. */
async function fiveReads(
  t: Target,
  wait: (n: number, r: { retryAfterMs: number }) => number,
  failures: number,
  max = 3,
  a: Auth = auth(t),
) {
  for (const [i, path] of PATHS.entries()) {
    fault(t, { kind: 'internal', route: ROUTES[i] ?? 'listProviders', count: failures });
    ok(path, await loop(sleeper(t), () => get(t, a, path), wait, max));
    await sleeper(t)(5_000);
  }
}

/** Polls GET /connections every 5 s for `polls` polls; the `at`-th is refused 429 (Retry-After 10). */
async function poller(t: Target, o: { polls: number; at: number; honour: boolean }) {
  const a = auth(t);
  for (let i = 0; i < o.polls; i++) {
    if (i === o.at) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 10, count: 1 });
    const r = await get(t, a, '/connections');
    await sleeper(t)(r.status === 429 && o.honour ? Math.max(5_000, r.retryAfterMs) : 5_000);
  }
}

export const PROBES_MORE_WELL_BEHAVED_24: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread": AWS-style full jitter, random(0,
  // min(20 s, 1 s * 2^n)): any single wait may be shorter than the one before, the ceiling grows.
  {
    does: 'is a Go service on full jitter random(0, 1 s x 2^n) (AWS style), five reads each through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const random = seeded(2451);
      await fiveReads(t, (n) => Math.round(random() * Math.min(1_000 * 2 ** n, 20_000)), 3);
    },
  },
  // "a 429 in it still must be waited out": a dashboard poller every 5 s whose poll is refused 429 (Retry-After
  // 10) skips to 10 s, then keeps its cadence.
  {
    does: 'polls GET /connections every 5 s, stretching one gap to 10 s for a 429’s Retry-After of 10, then keeping its cadence',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      await poller(t, { polls: 10, at: 4, honour: true });
    },
  },
];

export const PROBES_MORE_MISBEHAVING_24: FaultyClient[] = [
  // "Clients retry with growing intervals": full jitter configured with cap = base (2 s), so every wait is
  // drawn from [0, 2 s]: spread, but the range never grows. Over ten reads the rules passed it (single draws
  // vary too widely to tell); the mean wait by retry tells it in about a third of draws of ten sequences and
  // three in five of twenty (growth-trend.ts: 61 of seeds 2452-2551 here), so this client makes twenty, on a
  // draw it tells (seed 2453; 2452, the first drawn, is among the two in five it cannot).
  {
    does: 'is a Go service on full jitter with its cap set equal to its base (every wait drawn from 0-2 s), twenty reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const random = seeded(2453);
      const a = auth(t);
      for (let i = 0; i < 4; i++) await fiveReads(t, () => Math.round(random() * 2_000), 3, 3, a);
    },
  },
  // "retry with growing intervals": a 429's Retry-After of 2 s honoured, then the client's own retries after
  // each of two 500s come at once, on three reads.
  {
    does: 'waits a 429’s Retry-After of 2 s, then retries at once after each of two 500s, on three reads',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      for (const [i, path] of PATHS.slice(0, 3).entries()) {
        const route = ROUTES[i] ?? 'listProviders';
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        fault(t, { kind: 'internal', route, count: 2 });
        ok(
          path,
          await loop(
            sleeper(t),
            () => get(t, a, path),
            (_n, r) => r.retryAfterMs,
            3,
          ),
        );
        await sleeper(t)(5_000);
      }
    },
  },
  // "respect the wait time of the response": a poller every 5 s keeps its cadence through a 429 whose
  // Retry-After is 10 s.
  {
    does: 'polls GET /connections every 5 s and keeps that cadence through a 429 whose Retry-After is 10 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      await poller(t, { polls: 10, at: 4, honour: false });
    },
  },
];
