import type { Target } from '../harness.ts';
import { type Auth, api, auth, publish, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { as, TENANTS } from './unnamed30-kit.ts';
import { nowOf } from './unnamed33-kit.ts';

/**
 * Round 40 writes clients of stacks no earlier round used: Tcl `http::geturl` with `after`, Ada AWS.Client,
 * Hare `time::sleep` loops, Rebol `wait`, Roc tasks, Vala libsoup, Odin `core:net` loops, GNU Smalltalk stream
 * readers, Guile `(web client)`, Io, Kitura and Oat++ clients, Cordova WebViews, MuleSoft 4 until-successful
 * with its defaults; and multi-region token caches (one token per region, shared by that region's tenants).
 * Each schedule is written from the documentation (none is installed), with a seeded draw where it draws; it
 * gets the retry number (0 for the first retry) and returns ms.
 */

/** Tcl `after [expr {500 * (1 << $n) + int(rand() * 250)}]`: the guidance's schedule. */
export const tclAfter = (random: () => number) => (n: number) => 500 * (1 << n) + Math.floor(random() * 250);

/** Ada AWS.Client loop: `delay Duration'Max (Retry_After, 0.5 * 2 ** N + Random (Gen) * 0.25)`. */
export const adaDelay = (random: () => number) => (n: number, retryAfterMs: number) =>
  Math.max(retryAfterMs, Math.round((0.5 * 2 ** n + random() * 0.25) * 1_000));

/** Hare `time::sleep((500 << max(n - 1, 0)) * time::MILLISECOND)`: a clamp meant for n = 0 repeats 500 ms. */
export const hareClamped = (n: number) => 500 << Math.max(n - 1, 0);

/** Rebol `wait (0.5 * (2 ** n)) + (random 250) / 1000`: seconds, `random 250` in 1..250. */
export const rebolWait = (random: () => number) => (n: number) => 500 * 2 ** n + 1 + Math.floor(random() * 250);

/** Roc `Sleep.millis (Num.round (Num.toF64 (1000 * 2^n) * u))`, `u` in [0.5, 1.5): equal jitter around it. */
export const rocJitter = (random: () => number) => (n: number) => Math.round(1_000 * 2 ** n * (0.5 + random()));

/** MuleSoft 4 `until-successful` with its defaults: maxRetries 5, millisBetweenRetries 60000 (fixed). */
export const MULE_DEFAULTS = { maxRetries: 5, millisBetweenRetries: 60_000 };

/** Odin `for attempt in 0..=4` (meant as "four attempts", five in fact), `500 << attempt` plus a draw. */
export const odinAttempts = (random: () => number) => (n: number) => (500 << n) + Math.floor(random() * 250);
export const ODIN_RETRIES = 4;

/**
 * An Io script that honours Retry-After on the first 429 only: the later retries fall back to its own
 * `500 * 2 ** n` (the header is read in the first branch of its `if`, never again).
 */
export const ioFirstOnly = (n: number, retryAfterMs: number) => (n === 0 ? retryAfterMs : 500 * 2 ** n);

/** An Ada client subtracting the time the request took (250 ms, its own stopwatch) from Retry-After. */
export const adaLessRoundTrip = (retryAfterMs: number) => Math.max(0, retryAfterMs - 250);

/**
 * A stream read cut after `n` messages, then resumed after 1 s with the cursor `resumeAt` picks from the
 * ids read (`?cursor=` when `asQuery`).
 */
export async function cutAndResume(
  t: Target,
  a: Auth,
  o: { n: number; resumeAt: (read: number[]) => number; asQuery?: boolean },
) {
  t.sandbox.control.addFault({ kind: 'stream_cut', afterMessages: o.n, count: 1 });
  const ids = await readStream(t, a, { count: o.n, onOpen: () => publish(t, a.tenant, o.n) });
  if (ids.length !== o.n) throw new Error(`read ${ids.length} of ${o.n}`);
  await sleeper(t)(1_000);
  await readStream(t, a, { cursor: o.resumeAt(ids), asQuery: o.asQuery ?? false, idleMs: 400 });
}

/**
 * A multi-tenant client reading each tenant every `everyS` for `minutes`. `group(tenant)` names the token
 * the tenant uses (its region, or the tenant itself); each token lives `ttlS` and is renewed once it is
 * older than `renewAfterS` (a cache keyed by that name).
 */
export async function byTokenGroup(
  t: Target,
  tenants: readonly string[],
  o: { group: (tenant: string) => string; ttlS: number; renewAfterS: number; everyS: number; minutes: number },
) {
  const cache = new Map<string, { a: Auth; at: number }>();
  const start = nowOf(t);
  for (let step = 0; step < (o.minutes * 60) / o.everyS; step++) {
    for (const tenant of tenants) {
      const name = o.group(tenant);
      let entry = cache.get(name);
      if (!entry || nowOf(t) - entry.at >= o.renewAfterS * 1_000) {
        entry = { a: as(t, tenant, o.ttlS), at: nowOf(t) };
        cache.set(name, entry);
      }
      const r = await api(t, { ...entry.a, tenant }, 'GET', '/connectors');
      if (r.status !== 200) throw new Error(`${tenant} answered ${r.status}`);
    }
    await sleeper(t)(Math.max(0, start + (step + 1) * o.everyS * 1_000 - nowOf(t)));
  }
}

/**
 * A nightly batch serving the integrator's tenants one after another: ten reads 3 s apart each, the next
 * tenant starting 2 s after. `fresh`: a new 15-minute token for each tenant; `shared`: one for all.
 */
export async function tenantBatches(t: Target, tokens: 'fresh' | 'shared') {
  const shared = as(t, TENANTS[0], 900);
  for (const tenant of TENANTS) {
    const a = tokens === 'fresh' ? as(t, tenant, 900) : { ...shared, tenant };
    for (let i = 0; i < 10; i++) {
      const r = await api(t, a, 'GET', '/connectors');
      if (r.status !== 200) throw new Error(`${tenant} answered ${r.status}`);
      await sleeper(t)(3_000);
    }
    await sleeper(t)(2_000);
  }
}

/**
 * One process with a token per region: it reads tenant C through the us token, then tenant A through the
 * eu token (two 500s, waits of the guidance), fails over to the us token for A (three attempts more, the
 * last a success), reading C between. `usReadsA`: the us token read tenant A before (a job of that region).
 */
export async function regionalFailover(t: Target, o: { usReadsA?: boolean } = {}) {
  const eu = as(t, TENANTS[0], 900);
  const us = as(t, TENANTS[2], 900);
  const forA = { ...us, tenant: TENANTS[0] };
  const sleep = sleeper(t);
  await api(t, us, 'GET', '/connectors');
  // A us-region job that also reads tenant A: both tokens are then in use for A at once.
  if (o.usReadsA) await api(t, forA, 'GET', '/connectors');
  t.sandbox.control.addFault({ kind: 'internal', route: 'listProviders', tenant: TENANTS[0], count: 4 });
  const waits = [600, 1_100, 2_200, 4_150];
  const attempts = [eu, eu, forA, forA, forA];
  for (const [n, a] of attempts.entries()) {
    const r = await api(t, a, 'GET', '/providers');
    if (r.status === 200) break;
    await api(t, us, 'GET', '/connectors');
    await sleep(waits[n] ?? 0);
  }
}

/**
 * Two pods of one client, each with its own token in use throughout (a read of /connectors before and after),
 * both refreshing /providers through four 500s: P at 0, 0.6 and 1.7 s, Q at 0.3, 1.0 and 2.3 s.
 */
export async function siblingRefresh(t: Target) {
  const p = auth(t);
  const q = auth(t);
  const sleep = sleeper(t);
  await api(t, p, 'GET', '/connectors');
  await api(t, q, 'GET', '/connectors');
  await sleep(5_000);
  t.sandbox.control.addFault({ kind: 'internal', route: 'listProviders', count: 4 });
  const timeline: [Auth, number][] = [
    [p, 300],
    [q, 300],
    [p, 400],
    [q, 700],
    [p, 600],
    [q, 5_000],
  ];
  for (const [a, after] of timeline) {
    await api(t, a, 'GET', '/providers');
    await sleep(after);
  }
  await api(t, p, 'GET', '/connectors');
  await api(t, q, 'GET', '/connectors');
}
