import { sleepOn, type Target } from '../harness.ts';
import { type Auth, auth, type Reply } from './unnamed-kit.ts';
import { get, ok } from './unnamed8-kit.ts';

/**
 * Round 24 writes clients of stacks no earlier round used: Symfony Messenger's retry strategy, Delayed::Job,
 * lestrrat-go/backoff, Perl Mojo::UserAgent, Oracle PL/SQL jobs on UTL_HTTP, Roblox game servers on
 * HttpService, Go loops that build a fresh cenkalti ExponentialBackOff per attempt. Each schedule is written
 * from the library's documentation (none is installed), with a seeded draw; it gets the retry number (0 for
 * the first retry) and returns ms.
 */

/**
 * Symfony Messenger `MultiplierRetryStrategy(maxRetries, delay 1000, multiplier 2, maxDelay 0, jitter 0.1)`:
 * `1000 * 2^n` moved by up to ±10 % (Symfony 6.3's jitter).
 */
export const messengerMultiplier = (random: () => number) => (n: number) =>
  Math.round(1_000 * 2 ** n * (1 + (random() * 2 - 1) * 0.1));

/** Delayed::Job's default `reschedule_at`: `5 + attempts^4` s after the failure (6 s, 21 s, 86 s, 261 s). */
export const delayedJob = (n: number) => (5 + (n + 1) ** 4) * 1_000;

/**
 * lestrrat-go/backoff `backoff.Exponential(WithMinInterval(500ms), WithMultiplier(2), WithJitterFactor(0.2),
 * WithMaxRetries(3))`: `500 * 2^n` moved by up to ±20 %.
 */
export const lestrratExponential = (random: () => number) => (n: number) =>
  Math.round(500 * 2 ** n * (1 + (random() * 2 - 1) * 0.2));

/** A Mojo::IOLoop timer retry in Perl: `0.5 * 2**$n + rand(0.25)` s. */
export const mojoTimer = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 250);

/** A PL/SQL job: `DBMS_SESSION.SLEEP(POWER(2, n) + DBMS_RANDOM.VALUE(0, 0.5))`, or a 429's Retry-After if longer. */
export const plsqlSleep = (random: () => number) => (n: number, r: Reply) =>
  Math.max(r.retryAfterMs, 1_000 * 2 ** n + Math.round(random() * 500));

/** A Roblox server script: `task.wait(2 ^ n + math.random())` s. */
export const robloxWait = (random: () => number) => (n: number) => 1_000 * 2 ** n + Math.round(random() * 1_000);

/**
 * A Go loop that builds `backoff.NewExponentialBackOff()` (cenkalti v4 defaults: 500 ms, randomization 0.5)
 * inside the attempt, so every wait is its first interval: uniform in [250, 750] ms, never growing.
 */
export const cenkaltiFreshEachAttempt = (random: () => number) => () => Math.round(250 + random() * 500);

/** Paths of five different reads, one per operation. */
export const PATHS = ['/providers', '/connectors', '/capabilities', '/connections', '/providers?category=pos'];

/**
 * Workers retrying their reads in rounds: all send, and once every answer is in, each failed one waits its
 * own time from that same moment (equal draws wake together, as in lockstep) and sends again; up to 3
 * retries. The wakes are taken in order, each call answered before the shared test clock moves on to the
 * next wake: a call still on its way over real HTTP would otherwise arrive after a later wake's advance.
 */
export async function lockstep(t: Target, workers: { a: Auth; path: string; wait: (n: number) => number }[]) {
  const clock = t.sandbox.state.clock;
  const replies: Reply[] = await Promise.all(workers.map((w) => get(t, w.a, w.path)));
  for (let n = 0; n < 3 && replies.some((r) => r.status >= 500); n++) {
    const base = clock.now();
    const due = workers
      .map((w, i) => ({ w, i, ms: w.wait(n) }))
      .filter(({ i }) => (replies[i]?.status ?? 0) >= 500)
      .sort((x, y) => x.ms - y.ms);
    for (const { w, i, ms } of due) {
      await sleepOn(t, Math.max(0, base + ms - clock.now()));
      replies[i] = await get(t, w.a, w.path);
    }
  }
  for (const [i, r] of replies.entries()) ok(`worker ${i}`, r);
}

/** `pods` processes of one client (a token each) reading `path` in lockstep, each on `schedule(seedOf(pod))`. */
export async function podsThrough(
  t: Target,
  o: {
    pods: number;
    path: string;
    seedOf: (pod: number) => () => number;
    schedule: (r: () => number) => (n: number) => number;
  },
) {
  const workers = Array.from({ length: o.pods }, (_, pod) => ({
    a: auth(t),
    path: o.path,
    wait: o.schedule(o.seedOf(pod)),
  }));
  await lockstep(t, workers);
}
