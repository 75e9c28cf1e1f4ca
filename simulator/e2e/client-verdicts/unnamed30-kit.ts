import type { Target } from '../harness.ts';
import { type Auth, auth, readStream } from './unnamed-kit.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';

/**
 * Round 30 writes clients of stacks no earlier round used: Spring Cloud Stream's consumer retry, http4k's
 * resilience filter defaults, Caddy's reverse_proxy load-balancing retries, Encore Pub/Sub subscription
 * retry policies, Netlify background functions, Kubernetes Job pod backoff, Rebus redelivery, MATLAB
 * scripts (`pause`, `rng`), Locust's constant_pacing and Vegeta's constant rate. Each schedule is written
 * from the documentation (none is installed), with a seeded draw where it draws; it gets the retry number
 * (0 for the first retry) and returns ms.
 */

/**
 * Spring Cloud Stream consumer defaults (`maxAttempts` 3, `backOffInitialInterval` 1 s,
 * `backOffMultiplier` 2, `backOffMaxInterval` 10 s): an ExponentialBackOffPolicy, which draws nothing.
 */
export const springCloudStream = (n: number) => Math.min(1_000 * 2 ** n, 10_000);

/** http4k `ResilienceFilters.RetryFailures()` on `Retry.ofDefaults`: 3 attempts, 500 ms apart, every time. */
export const http4kDefault = () => 500;

/** Caddy `reverse_proxy { lb_try_duration 5s; lb_try_interval 250ms }`: a try every 250 ms for 5 s. */
export const caddyTries = { intervalMs: 250, tries: Math.floor(5_000 / 250) };

/** Encore `pubsub.RetryPolicy` defaults: MinBackoff 10 s doubling to MaxBackoff 10 min, MaxRetries 100. */
export const encoreDefault = (n: number) => Math.min(10_000 * 2 ** n, 600_000);

/** Encore with a policy set by hand: `RetryPolicy{MinBackoff: 5 s, MaxBackoff: 1 min, MaxRetries: 3}`. */
export const encoreTuned = (n: number) => Math.min(5_000 * 2 ** n, 60_000);

/** Netlify background functions: a failed run is retried twice, one minute and then two minutes later. */
export const netlifyBackground = (n: number) => [60_000, 120_000][n] ?? 120_000;

/** Kubernetes Job pod failure backoff: 10 s, 20 s, 40 s ... capped at 6 min; `backoffLimit` 6. */
export const jobBackoff = (n: number) => Math.min(10_000 * 2 ** n, 360_000);

/**
 * Rebus `SimpleRetryStrategy` with second-level retries deferred `2^n s` plus up to 400 ms
 * (`bus.Advanced.TransportMessage.Defer`), four deliveries in all.
 */
export const rebusDeferred = (random: () => number) => (n: number) => 1_000 * 2 ** n + Math.floor(random() * 400);

/**
 * A MATLAB script's `pause(0.5 * 2^k + 0.25 * rand)`; with `rng('default')` at the top of the function
 * every call draws the same rand sequence (0.8147, 0.9058, ...), without it each call draws anew.
 */
export function matlabPause(random: () => number, reseed?: () => () => number) {
  let draw = random;
  return {
    /** Called at the start of each operation: `rng('default')` when the script has it. */
    start() {
      if (reseed) draw = reseed();
    },
    wait: (n: number) => Math.round(500 * 2 ** n + 250 * draw()),
  };
}

/** MATLAB's `rng('default')` stream: the Mersenne Twister seeded 0, whose first draws are these. */
export const matlabDefaultDraws = () => {
  const values = [0.8147, 0.9058, 0.127, 0.9134, 0.6324];
  let i = 0;
  return () => values[i++ % values.length] ?? 0;
};

export const INTEGRATOR = 'network-integrator';
/** Sandbox options giving the integrator all three tenants. */
export const ALL_TENANTS = { fixtures: fixturesWithClientForAllTenants(INTEGRATOR) };
export const TENANTS = ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes'] as const;
/** A token of the integrator (ttl s), used for `tenant`. */
export const as = (t: Target, tenant: string, ttl: number): Auth => ({
  ...t.sandbox.issueToken(INTEGRATOR, ttl),
  tenant,
});

/**
 * A stream consumer with a bounded buffer: it receives `received` messages, has processed the first
 * `processed` of them when the server cuts the stream, and resumes from the number `cursorOf` picks.
 */
export async function bufferedConsumer(
  t: Target,
  o: { received: number; processed: number; cursorOf: (lastReceived: number, lastProcessed: number) => number },
) {
  const a = auth(t);
  t.sandbox.control.addFault({ kind: 'stream_cut', afterMessages: o.received, count: 1 });
  const publishAll = () => {
    for (let i = 0; i < o.received; i++) t.sandbox.control.trigger({ event: 'order.created', tenant: a.tenant });
  };
  const ids = await readStream(t, a, { onOpen: publishAll });
  const lastReceived = ids.at(-1);
  const lastProcessed = ids[o.processed - 1];
  if (lastReceived === undefined || lastProcessed === undefined) throw new Error(`read ${ids.join(',')}`);
  await t.sandbox.control.advanceClock(2);
  await readStream(t, a, { cursor: o.cursorOf(lastReceived, lastProcessed), idleMs: 500 });
}
