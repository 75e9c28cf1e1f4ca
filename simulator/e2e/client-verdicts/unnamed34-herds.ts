import type { Target } from '../harness.ts';
import { type Auth, auth, fault, publish, readStream } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { r3labsBackoff } from './unnamed33-kit.ts';
import { clockOf } from './unnamed34-kit.ts';

/**
 * Round 34, renewal herds: several processes or calls renewing one shared token at the same moment,
 * each taking a token of its own, all but the last written to the cache used once and dropped with
 * their whole lifetime left. Pinned as ambiguous with today's verdict.
 */

/** Three pods sharing a token through a cache, each renewing it once fewer than 300 s are left. */
async function cacheStampede(t: Target) {
  let shared: { a: Auth; until: number } = { a: auth(t, undefined, 900), until: clockOf(t) + 900_000 };
  for (let round = 0; round < 65; round++) {
    // The three pods read the cache within a second of each other; each sees it stale before any
    // renewal is written back, takes a token of its own, uses it, and writes it (the last one wins).
    const stale = shared.until - clockOf(t) < 300_000;
    const taken = [0, 1, 2].map(() => (stale ? auth(t, undefined, 900) : shared.a));
    for (const a of taken) {
      ok('read', await get(t, a, '/connectors'));
      await sleeper(t)(300);
    }
    const last = taken.at(-1);
    if (stale && last) shared = { a: last, until: clockOf(t) + 900_000 };
    await sleeper(t)(14_100);
  }
}

/** One process's three calls in flight when its token expires: each 401 renews on its own. */
async function renewalPerCall(t: Target) {
  const old = auth(t, undefined, 60);
  ok('read', await get(t, old, '/connectors'));
  await sleeper(t)(61_000);
  const refused = await Promise.all(['/connectors', '/providers', '/capabilities'].map((p) => get(t, old, p)));
  if (refused.some((r) => r.status !== 401)) throw new Error(`answered ${refused.map((r) => r.status).join(',')}`);
  const renewed = ['/connectors', '/providers', '/capabilities'].map((p) => ({ p, a: auth(t, undefined, 900) }));
  for (const { p, a } of renewed) ok(p, await get(t, a, p));
  const kept = renewed.at(-1)?.a;
  if (!kept) return;
  for (let i = 0; i < 10; i++) {
    await sleeper(t)(15_000);
    ok('read', await get(t, kept, '/connectors'));
  }
}

/** A reader reconnecting on cenkalti's backoff (0.5 s, x1.5, ±50 %) through a restart's 503s, Retry-After unread. */
async function restartIgnoringRetryAfter(t: Target) {
  const a = auth(t);
  fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 4_000, count: 1 });
  const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 2) });
  const last = ids.at(-1);
  if (last === undefined) throw new Error('read nothing');
  const wait = r3labsBackoff(seeded(3482));
  for (let n = 0; n < 10; n++) {
    await sleeper(t)(wait(n));
    let refused = false;
    await readStream(t, a, { cursor: last, idleMs: 400, onRefused: () => (refused = true) });
    if (!refused) return;
  }
  throw new Error('never reopened');
}

export const HERDS_AMBIGUOUS_34: AmbiguousClient8[] = [
  {
    does: 'reconnects its stream on cenkalti backoff (0.5 s, x1.5, ±50 %) through a restart’s 503s (Retry-After 4 s), never reading their Retry-After',
    why: '"respect the wait time of the response" is said of rate_limited; a 503 is a gateway\'s answer clients treat as a transport failure, and the rules judge its Retry-After by growing-waits alone: growing waits shorter than it pass',
    judged: [],
    run: restartIgnoringRetryAfter,
  },
  {
    does: 'is three pods sharing a 15-minute token through a cache, each renewing it once under 300 s are left: at the renewal all three see it stale, take a token each within a second, and the last written wins',
    why: '"renewed, not extended": the renewal is near expiry as the interface asks, but two of the three new tokens are used once and dropped with their whole lifetime left (a cache stampede); whether that waste is churn the interface does not say',
    judged: ['auth.token-reused'],
    run: cacheStampede,
  },
  {
    does: 'has three calls in flight when its token expires: each 401 handler takes a new token of its own (no single flight), and the process keeps the last one for its next reads',
    why: '"remedy: request a new access token" is what each 401 asks, and "after a 401" is no churn; but the first two tokens of the herd are replaced by the third (not after 401s of their own) after one call each, with their whole lifetime left: today that is churn; whether one renewal per failed call is owed or one per process the interface does not say',
    judged: ['auth.token-reused'],
    run: renewalPerCall,
  },
];
