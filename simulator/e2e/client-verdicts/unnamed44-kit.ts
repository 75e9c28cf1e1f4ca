import type { Target } from '../harness.ts';
import { type Auth, api, auth, CONNECTION, fault, publish, READS, type Reply, readStream } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

/**
 * Round 44 is about clocks and timers: a timer wheel rounding every sleep up to its tick (Netty's
 * HashedWheelTimer), Spring Security's `clockSkew` read as a renewal window, Elixir Req's retry defaults,
 * a token cache on a monotonic clock that stood still while the host was suspended, a stream consumer whose
 * in-flight task decides its checkpoint, a consumer resuming after a suspend, a cron schedule carrying
 * failed rows into its next run. Each schedule is written from the documentation (none is installed), with
 * a seeded draw where it draws; it gets the retry number (0 for the first retry) and returns ms.
 */

/** A HashedWheelTimer with `tickMs` ticks: a timeout fires on the first tick at or after its deadline. */
export const wheel = (tickMs: number) => (ms: number) => Math.ceil(ms / tickMs) * tickMs;

/** The guidance's `500 * 2^n` plus a draw of 1-250 ms, fired by a wheel of `tickMs`. */
export const wheelGuidance = (tickMs: number, random: () => number) => (n: number) =>
  wheel(tickMs)(500 * 2 ** n + 1 + Math.floor(random() * 249));

/**
 * A Netty client whose guidance backoff fires on a HashedWheelTimer of `tickMs` ticks: three reads, each through two
 * 500s (the well-behaved 100 ms wheel and the misbehaving 1 s wheel are this client with one setting changed).
 */
export const wheelGuidanceReads = (tickMs: number, seed: number) => async (t: Target) => {
  const a = auth(t);
  const sleep = sleeper(t);
  const wait = wheelGuidance(tickMs, seeded(seed));
  for (const [route, path] of READS.slice(0, 3)) {
    fault(t, { kind: 'internal', route, count: 2 });
    ok(path, await loop(sleep, () => get(t, a, path), wait, 3));
    await sleep(6_000);
  }
};

/** Elixir Req's default `retry_delay`: `2^n * 1000` ms (1, 2, 4 s ...), no draw; a Retry-After wins. */
export const reqDelay = (n: number, r: Reply) => (r.retryAfterMs > 0 ? r.retryAfterMs : 1_000 * 2 ** n);

/**
 * Spring Security's `OAuth2AuthorizedClientManager`: the cached token is renewed once `now >= expiresAt -
 * clockSkew`. `ttlS` is the token's lifetime; `nowS` the client's clock in s since its start.
 */
export function skewedCache(t: Target, ttlS: number, skewS: number) {
  let held: { auth: Auth; expiresAt: number } | undefined;
  return (nowS: number): Auth => {
    if (!held || nowS >= held.expiresAt - skewS) held = { auth: auth(t, undefined, ttlS), expiresAt: nowS + ttlS };
    return held.auth;
  };
}

/** Reads `/connectors` every `everyS` for `forS` with the token the cache hands out. */
export async function readEvery(t: Target, cache: (nowS: number) => Auth, everyS: number, forS: number) {
  const sleep = sleeper(t);
  for (let now = 0; now < forS; now += everyS) {
    ok(`read at ${now} s`, await get(t, cache(now), '/connectors'));
    await sleep(everyS * 1_000);
  }
}

/**
 * A Tokio consumer handing each message to a task: the server cuts the stream after four messages while the
 * fourth's task still runs. It resumes 1 s later from the fourth (`drain`: it waits for its tasks, then
 * checkpoints what it read) or from the watermark of tasks completed (the third).
 */
export async function inFlightConsumer(t: Target, o: { drain: boolean }) {
  const a = auth(t);
  fault(t, { kind: 'stream_cut', afterMessages: 4, count: 1 });
  const ids = await readStream(t, a, { count: 4, onOpen: () => publish(t, a.tenant, 4) });
  if (ids.length !== 4) throw new Error(`read ${ids.length} of 4`);
  await sleeper(t)(1_000);
  await readStream(t, a, { cursor: o.drain ? ids[3] : ids[2], idleMs: 400 });
}

/**
 * A stream consumer on a laptop-class host: the stream is cut after three messages, the host is suspended
 * for 3 minutes, and on resume it reconnects with the number it read last (`keepCursor`) or, having built
 * a new SSE client in its power-resume handler, with none.
 */
export async function suspendedStream(t: Target, o: { keepCursor: boolean }) {
  const a = auth(t, undefined, 3_600);
  fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
  const ids = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
  if (ids.length !== 3) throw new Error(`read ${ids.length} of 3`);
  await sleeper(t)(180_000);
  await readStream(t, a, { ...(o.keepCursor ? { cursor: ids[2] } : {}), idleMs: 400 });
}

/**
 * A token cache timing its 5-minute token on a monotonic clock (`performance.now()`), which stood still while
 * the host slept for 2 hours: the first read after the suspend is refused 401. It renews at once
 * (`renewAt401`), or trusts its clock, sends its next read (another path) 10 s later with the same token, and
 * renews only after that second 401.
 */
export async function suspendedToken(t: Target, o: { renewAt401: boolean }) {
  const sleep = sleeper(t);
  let a = auth(t, undefined, 300);
  ok('read before the suspend', await get(t, a, '/connectors'));
  await sleep(7_200_000);
  const refused = await get(t, a, '/connectors');
  if (refused.status !== 401) throw new Error(`expired token answered ${refused.status}`);
  if (!o.renewAt401) {
    await sleep(10_000);
    const again = await get(t, a, '/providers');
    if (again.status !== 401) throw new Error(`expired token answered ${again.status}`);
  }
  a = auth(t, undefined, 300);
  ok('read with the renewed token', await get(t, a, o.renewAt401 ? '/connectors' : '/providers'));
}

/**
 * A cron job every minute creating the next venue of its list, after sending again the rows a run before it
 * could not finish; the second run's create is answered 500. The unfinished row keeps its key in the job's
 * table (`keepKey`) or gets the key of the run that sends it.
 */
export async function cronRuns(t: Target, o: { keepKey: boolean }) {
  const a = auth(t, undefined, 3_600);
  const sleep = sleeper(t);
  const unfinished: { body: object; key: string }[] = [];
  for (let run = 1; run <= 3; run++) {
    for (const row of unfinished.splice(0)) {
      const key = o.keepKey ? row.key : `${row.key.split('-run')[0]}-run${run}`;
      ok(`run ${run}: unfinished row`, await createWith(t, a, row.body, key));
    }
    if (run === 2) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
    const row = { body: { ...CONNECTION, scopeLabel: `Cron Venue ${run}` }, key: `cron-venue-${run}-run${run}` };
    const r = await createWith(t, a, row.body, row.key);
    if (r.status === 500) unfinished.push(row);
    else ok(`run ${run}`, r);
    await sleep(60_000);
  }
  if (unfinished.length) throw new Error('a row was left');
}

/** A capability check (a POST that changes nothing) of `capability` on the POS connector. */
export const check = (t: Target, a: Auth, capability: string) =>
  api(t, a, 'POST', '/capabilities', { body: { connectorId: 'tillcraft-pos-cloud', capability } });
