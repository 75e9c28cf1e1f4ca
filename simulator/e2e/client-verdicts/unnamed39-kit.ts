import type { Target } from '../harness.ts';
import { type Auth, api, auth, publish, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { as, TENANTS } from './unnamed30-kit.ts';
import { nowOf, ownToken } from './unnamed33-kit.ts';

/**
 * Round 39 writes clients of stacks no earlier round used: Racket `http-sendrecv` loops, Fortran over libcurl
 * (`CURLINFO_RETRY_AFTER`), GnuCOBOL batch steps calling libcurl, Zig `std.http.Client` loops, AutoHotkey
 * `WinHttpRequest`, Scotty/conduit stream readers, Blazor Server circuits, htmx pages, tRPC procedures with
 * Zod inputs, Lumen's HTTP client, Go Fiber clients; and multi-tenant token caches (Orleans grains). Each
 * schedule is written from the documentation (none is installed), with a seeded draw where it draws; it gets
 * the retry number (0 for the first retry) and returns ms.
 */

/** Racket `(sleep (* 0.5 (expt 2 n) (+ 1 (random))))`: the doubling interval stretched by a draw in [1, 2). */
export const racketSleep = (random: () => number) => (n: number) => Math.round(500 * 2 ** n * (1 + random()));

/**
 * A Fortran loop over libcurl: the larger of `CURLINFO_RETRY_AFTER` (seconds, 0 when absent) and its own
 * `0.5 * 2**n + 0.25 * r` s, `r` from `random_number`.
 */
export const fortranCurl = (random: () => number) => (n: number, retryAfterMs: number) =>
  Math.max(retryAfterMs, Math.round((0.5 * 2 ** n + 0.25 * random()) * 1_000));

/** GnuCOBOL `CALL "C$SLEEP" USING WS-DELAY` with `COMPUTE WS-DELAY = 2 ** N` plus a draw of `FUNCTION RANDOM`. */
export const cobolDoubling = (random: () => number) => (n: number) => 1_000 * 2 ** n + Math.floor(random() * 400);

/** The same step with the JCL-style `WS-DELAY VALUE 2` left fixed: 2 s each time. */
export const cobolFixed = () => 2_000;

/**
 * Zig `std.time.sleep((500 << n) * ms + jitter)` where `jitter` is drawn once, at start-up, from
 * `std.Random.DefaultPrng`: every retry sequence of the process adds the same amount.
 */
export const zigOnceJitter = (random: () => number) => {
  const jitter = Math.floor(random() * 250);
  return (n: number) => 500 * 2 ** n + jitter;
};

/** The same loop drawing the jitter for every sleep (`prng.random().uintLessThan(u64, 250)` in the loop). */
export const zigJitter = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 250);

/** AutoHotkey `Sleep, % http.GetResponseHeader("Retry-After")`: `Sleep` counts milliseconds. */
export const autoHotkeySleep = (retryAfterMs: number) => retryAfterMs / 1_000;

/** Laravel/Lumen `Http::retry(5, fn ($attempt) => $attempt * 300 + random_int(0, 150))`: five attempts. */
export const lumenRetry = (random: () => number) => (n: number) => (n + 1) * 300 + Math.floor(random() * 151);
export const LUMEN_TIMES = 5;

/**
 * A stream read cut after `n` messages; the reader checkpoints every `every` messages (conduit's
 * `chunksOf`), then reconnects after 1 s with the checkpoint `resumeAt` picks (`?cursor=` when `asQuery`).
 */
export async function cutAndCheckpoint(
  t: Target,
  a: Auth,
  o: { n: number; every: number; resumeAt: (read: number[], checkpoint: number) => number; asQuery?: boolean },
) {
  t.sandbox.control.addFault({ kind: 'stream_cut', afterMessages: o.n, count: 1 });
  const ids = await readStream(t, a, { count: o.n, onOpen: () => publish(t, a.tenant, o.n) });
  if (ids.length !== o.n) throw new Error(`read ${ids.length} of ${o.n}`);
  const checkpoint = ids[Math.floor(ids.length / o.every) * o.every - 1] ?? 0;
  await sleeper(t)(1_000);
  await readStream(t, a, { cursor: o.resumeAt(ids, checkpoint), asQuery: o.asQuery ?? false, idleMs: 400 });
}

/**
 * Orleans grains, one per tenant of the integrator, activated `staggerS` apart: each reads its tenant every
 * 20 s for `minutes`. `ttlS`/`leftS`: each grain's own token and when it renews; `perActivation`: the grain
 * is collected after each read (CollectionAge shorter than its timer) and takes a new token on activation.
 */
export async function orleansGrains(
  t: Target,
  o: { ttlS: number; leftS: number; staggerS: number; minutes: number; perActivation?: boolean },
) {
  // Each grain's token cache is made when the grain activates: its first token is taken then.
  const grains = TENANTS.map((tenant, i) => ({
    startsAt: i * o.staggerS * 1_000,
    token: undefined as (() => Auth) | undefined,
    fresh: () => as(t, tenant, o.ttlS),
  }));
  const start = nowOf(t);
  for (let step = 0; step < (o.minutes * 60) / 20; step++) {
    for (const g of grains) {
      if (nowOf(t) - start < g.startsAt) continue;
      g.token ??= ownToken(t, o.ttlS, o.leftS, g.fresh);
      const a = o.perActivation ? g.fresh() : g.token();
      const r = await api(t, a, 'GET', '/connectors');
      if (r.status !== 200) throw new Error(`grain read answered ${r.status}`);
    }
    await sleeper(t)(Math.max(0, start + (step + 1) * 20_000 - nowOf(t)));
  }
}

/**
 * A Deployment's pods reading /connectors every 10 s, each with its own 1-hour token taken at start-up.
 * `starts[i]`/`stops[i]` (s on the run's clock) bound pod i: a scale-out adds pods, a rolling update stops
 * an old pod and starts its successor a few seconds later.
 */
export async function deployment(t: Target, pods: { startS: number; stopS: number }[], minutes: number) {
  const tokens = new Map<number, Auth>();
  const start = nowOf(t);
  for (let step = 0; step < (minutes * 60) / 5; step++) {
    const s = step * 5;
    for (const [i, pod] of pods.entries()) {
      // Each pod reads on its own 10 s beat, offset by its start.
      if (s < pod.startS || s >= pod.stopS || (s - pod.startS) % 10 !== 0) continue;
      let a = tokens.get(i);
      if (!a) {
        a = auth(t, undefined, 3_600);
        tokens.set(i, a);
      }
      const r = await api(t, a, 'GET', '/connectors');
      if (r.status !== 200) throw new Error(`pod ${i} answered ${r.status}`);
    }
    await sleeper(t)(Math.max(0, start + (step + 1) * 5_000 - nowOf(t)));
  }
}
