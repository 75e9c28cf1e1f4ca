import { randomUUID } from 'node:crypto';
import { api, auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import {
  caddyTries,
  encoreDefault,
  http4kDefault,
  jobBackoff,
  matlabDefaultDraws,
  matlabPause,
  rebusDeferred,
  springCloudStream,
} from './unnamed30-kit.ts';

/**
 * Round 30, misbehaving clients whose violation looks correct: a framework's documented defaults (Spring
 * Cloud Stream, http4k, Caddy, Encore, Kubernetes Jobs, Rebus), a MATLAB `rng('default')`, a key the
 * message serialiser drops, a Retry-After divided by 1000, a proxy adding Service-Version to some routes,
 * an Astro island. Each must fail exactly its rule(s).
 */
export const MISBEHAVING_30: FaultyClient[] = [
  // "slight random spread": Spring Cloud Stream's consumer retry is an ExponentialBackOffPolicy: 1 s, 2 s.
  {
    does: 'is a Spring Cloud Stream consumer on its retry defaults (maxAttempts 3, 1 s x2, no jitter), three reads each through two 500s',
    fails: ['retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: springCloudStream, failures: 2, max: 2 }),
  },
  // "growing intervals and slight random spread": http4k's RetryFailures() on Retry.ofDefaults: 500 ms flat.
  {
    does: 'is an http4k client behind ResilienceFilters.RetryFailures() with Retry.ofDefaults (3 attempts, 500 ms each), three reads each through two 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: http4kDefault, failures: 2, max: 2 }),
  },
  // "up to 4 attempts", "growing intervals": Caddy's lb_try_interval retries a read every 250 ms for 5 s.
  {
    does: 'sits behind Caddy reverse_proxy with lb_try_duration 5s and lb_try_interval 250ms, a read tried seven times through six 500s',
    fails: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 6 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          () => caddyTries.intervalMs,
          caddyTries.tries,
        ),
      );
    },
  },
  // "up to 4 attempts": Encore's default subscription policy (MaxRetries 100) under the message id key.
  {
    does: 'is an Encore Pub/Sub subscription on the default RetryPolicy (10 s doubling, MaxRetries 100) creating under the message id through four 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Default Dumplings' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'msg-encore-default-1'), encoreDefault, 5));
    },
  },
  // "up to 4 attempts ... whichever pods sent the attempts": a Job's backoffLimit 6, each pod a token.
  {
    does: 'is a Kubernetes Job on the default backoffLimit 6 whose pods each take a token and key the create with the Job name, through four 500s (five pods)',
    fails: ['retry.attempt-limit'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Backoff Bibimbap' };
      const pod = () => createWith(t, auth(t), body, 'job-onboard-venue-91');
      ok('create', await loop(sleeper(t), pod, (n) => jobBackoff(n) + 2_000, 6));
    },
  },
  // "up to 4 attempts", "growing intervals": Rebus's default SimpleRetryStrategy delivers 5 times at once.
  {
    does: 'is a Rebus handler on the default SimpleRetryStrategy (5 deliveries, no delay) creating under the message id through four 500s',
    fails: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Redelivered Ramen' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'rbs2-msg-5e0f'),
          () => 0,
          4,
        ),
      );
    },
  },
  // "Idempotency keys reused on retries": the key is a [JsonIgnore] property with a Guid initialiser, so
  // each deferred delivery deserialises the message with a new key.
  {
    does: 'is a Rebus handler whose key is a [JsonIgnore] message property initialised with Guid.NewGuid(), so each deferred delivery of a create refused 500 carries a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Serialised Satay' };
      const deliver = () => createWith(t, a, body, randomUUID());
      ok('create', await loop(sleeper(t), deliver, rebusDeferred(seeded(3057)), 3));
    },
  },
  // "slight random spread": rng('default') at the top of the function resets the draws on every call.
  {
    does: "is a MATLAB function calling rng('default') at its top, so each read’s retries pause 0.5 * 2^k + 0.25 * rand with the same draws, three reads each through two 500s",
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const m = matlabPause(seeded(3058), matlabDefaultDraws);
      for (const [route, path] of READS.slice(0, 3)) {
        m.start();
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), m.wait, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "respect the wait time of the response": HTTParty hands Retry-After as a string; the client divides by
  // 1000 for Ruby's sleep (seconds), taking it for milliseconds.
  {
    does: 'is a Ruby HTTParty client sleeping retry_after.to_i / 1000.0 (Retry-After taken for ms) after a 429 (Retry-After 3 s), then at least 1 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          (_n, r) => Math.max(1_000, r.retryAfterMs / 1000),
          2,
        ),
      );
    },
  },
  // "Sample calls send a header Service-Version": APISIX's proxy-rewrite adds it on the /connections route
  // only; the catalogue reads go through a route without the plugin.
  {
    does: 'sits behind APISIX whose proxy-rewrite plugin adds Service-Version on the /connections route only, the catalogue reads going out without it',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('connections', await api(t, a, 'GET', '/connections'));
      for (const path of ['/providers', '/connectors']) ok(path, await api(t, a, 'GET', path, { version: null }));
    },
  },
  // "never sent from a browser": an Astro island (client:load) given the token as a prop by the page.
  {
    does: 'is an Astro page passing the token as a prop to a client:load island, which fetches the connections from the browser',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', {
        headers: { origin: 'https://partner.example', 'sec-fetch-mode': 'cors' },
      });
    },
  },
];
