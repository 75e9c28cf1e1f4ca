import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { atLeastRetryAfter } from './unnamed26-kit.ts';
import {
  activeJobPolynomial,
  bottleneck,
  failsafeGo,
  httpxRetries,
  prefectBackoff,
  reqwestRetry,
  swiftRetry,
  symfonyRetry,
  tokioRetry,
  wretchLinear,
} from './unnamed27-kit.ts';

/**
 * Round 27, well-behaved clients of stacks no earlier round used. Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_27: UnnamedClient2[] = [
  // "growing intervals and slight random spread": reqwest-middleware with RetryTransientMiddleware.
  {
    does: 'is a Rust reqwest-middleware client with RetryTransientMiddleware (bounded jitter, 500 ms x2), three reads each through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: reqwestRetry(seeded(2701)), failures: 3, max: 3 });
    },
  },
  // "respect the wait time of the response" and "the same key with the same content": failsafe-go's
  // `HandleIf` on 429/5xx with `WithDelayFunc` reading Retry-After; the key is made before `Get`.
  {
    does: 'is a failsafe-go RetryPolicy (500 ms x2 ± 250 ms, Retry-After as delay floor) creating through a 429 (Retry-After 2 s) and a 500 under one key',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Failsafe Falafel' };
      const wait = atLeastRetryAfter(failsafeGo(seeded(2702)));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'failsafe-go-5b1e7c20'), wait, 3));
    },
  },
  // "growing intervals and slight random spread": tokio-retry with full jitter (shorter waits after longer
  // ones are legal).
  {
    does: 'is a Rust tokio-retry Retry::spawn with ExponentialBackoff(2).factor(250).map(jitter), three reads each through two 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: tokioRetry(seeded(2703)), failures: 2, max: 3, from: 1 });
    },
  },
  // "slight random spread": Symfony's RetryableHttpClient (1 s doubling, jitter 0.1: ±100 ms at the first retry).
  {
    does: 'is a Symfony RetryableHttpClient (GenericRetryStrategy 1000 ms, x2, jitter 0.1), three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: symfonyRetry(seeded(2704)), failures: 2, max: 3, from: 2 });
    },
  },
  // "the same key with the same content returns the same response again": httpx-retries retries a POST
  // (allowed_methods includes POST) whose connection dropped after the commit; the key header is on the
  // request the transport re-sends.
  {
    does: 'is a Python httpx client with httpx-retries RetryTransport retrying a POST whose connection dropped after the commit, the key on the request it re-sends',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Httpx Halloumi' };
      const wait = httpxRetries(seeded(2705));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'httpx-req-3f0a9d11'), wait, 3));
    },
  },
  // "growing intervals and slight random spread": a Prefect task `@task(retries=3,
  // retry_delay_seconds=exponential_backoff(backoff_factor=2), retry_jitter_factor=0.5)`.
  {
    does: 'is a Prefect task (retries 3, exponential_backoff(2), retry_jitter_factor 0.5), three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: prefectBackoff(seeded(2706)), failures: 2, max: 3 });
    },
  },
  // "Idempotency keys reused on retries": an ActiveJob keyed by its `job_id` with `retry_on ServerError,
  // wait: :polynomially_longer, attempts: 4`: waits of 3 s and 18 s plus jitter, under the job's key.
  {
    does: 'is a Rails ActiveJob keyed by its job_id, retry_on wait: :polynomially_longer (3 s, 18 s + 15 %), through two 500s on a create',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'ActiveJob Arepas' };
      const wait = activeJobPolynomial(seeded(2707));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'activejob-4c2d9e0b-77aa'), wait, 3));
    },
  },
  // "linear growth is growth": wretch's retry middleware with a linear delayRamp plus a draw.
  {
    does: 'is a wretch client with the retry middleware (delayTimer 500, linear delayRamp plus rand(250)), three reads each through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: wretchLinear(seeded(2708)), failures: 3, max: 3, from: 1 });
    },
  },
  // "growing intervals and slight random spread": swift-retry's default full jitter on a Linux server.
  {
    does: 'is a Swift server using swift-retry’s default exponential full jitter (base 1 s), three reads each through two 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: swiftRetry(seeded(2709)), failures: 2, max: 3, from: 2 });
    },
  },
  // "respect the wait time of the response": a Bottleneck limiter (maxConcurrent 1, minTime 200) whose
  // `failed` handler returns max(Retry-After, its own backoff); the job carries its key in its data.
  {
    does: 'is a Bottleneck limiter whose failed handler returns the larger of Retry-After and its backoff, a keyed webhook registration through two 429s (Retry-After 1 s)',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createWebhook', retryAfterSeconds: 1, count: 2 });
      const body = { url: 'http://127.0.0.1:9/hooks/bottleneck', events: ['order.created'] };
      const send = () => api(t, a, 'POST', '/webhooks', { body, key: 'bottleneck-job-0d9a3c51' });
      ok('hook', await loop(sleeper(t), send, bottleneck(seeded(2710)), 3));
    },
  },
  // "retry only after rate_limited and internal": wretch's `until` stops on any 4xx but 429: a capability
  // check refused 400 is given up, the corrected check (another content) goes out once.
  {
    does: 'is a wretch client whose retry stops on a 400 capability check and sends the corrected check once',
    pass: [],
    async run(t) {
      const a = auth(t);
      const bad = await api(t, a, 'POST', '/capabilities', { body: { connectorId: 't', capability: 'orders.read' } });
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(1_500);
      const body = { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' };
      ok('check', await api(t, a, 'POST', '/capabilities', { body }));
    },
  },
  // Plain reads after the sample's first call: GET /info (the sample's path, answer not shown) then the
  // self-description, another path, once each.
  {
    does: 'tries the sample’s first call GET /info once, then reads the self-description and the providers',
    pass: [],
    async run(t) {
      const a = auth(t);
      await get(t, a, '/info');
      await sleeper(t)(300);
      ok('self', await get(t, a, ''));
      ok('providers', await get(t, a, '/providers'));
    },
  },
];
