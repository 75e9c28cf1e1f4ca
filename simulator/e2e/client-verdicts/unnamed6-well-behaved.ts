import { createServer } from 'node:net';
import { held, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault, type Reply, type UnnamedClient2 } from './unnamed-kit.ts';
import { pollyDecorrelatedJitterV2, seeded, uuid } from './unnamed4-kit.ts';
import { retried, transient } from './unnamed5-fleet.ts';
import { EDGE_WELL_BEHAVED_6 } from './unnamed6-edges.ts';
import {
  abortable,
  faradayRetry,
  goEqualJitter,
  ktorExponential,
  reactorBackoff,
  reqwestBounded,
  sidekiqDelayMs,
  sleeper,
} from './unnamed6-kit.ts';
import { MORE_WELL_BEHAVED_6 } from './unnamed6-well-behaved-more.ts';
import { STREAM_CLIENTS_6 } from './unnamed6-well-behaved-streams.ts';

/** A loopback port nothing listens on (a sidecar not started yet): connections to it are refused. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const address = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}

/**
 * Round 6, well-behaved: clients in the style of other languages' HTTP stacks and resilience libraries
 * (schedules in unnamed6-kit.ts). Each must get no `fail`; the interface sentence that makes it legal is
 * quoted above it.
 */
const STACKS: UnnamedClient2[] = [
  // "respect the wait time of the response, retry with growing intervals": a Spring WebClient whose
  // retryWhen filter takes 429 and 5xx, with Reactor's backoff (500 ms, max 5 s, jitter 0.5) and a
  // doBeforeRetryAsync that first sleeps a 429's Retry-After.
  {
    does: 'is a Spring WebClient with retryWhen(Retry.backoff(3, 500 ms).maxBackoff(5 s).jitter(0.5)) filtered to 429 and 5xx, sleeping a 429’s Retry-After before the backoff, over three reads',
    pass: ['retry.only-after-failure', 'retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(601);
      const plan: [route: string, path: string, faults: ('429' | '500')[]][] = [
        ['listConnectors', '/connectors', ['429', '500']],
        ['listCapabilities', '/capabilities', ['500', '500']],
        ['listProviders', '/providers', ['500', '500', '500']],
      ];
      for (const [route, path, faults] of plan) {
        for (const f of faults)
          fault(
            t,
            f === '429'
              ? { kind: 'rate_limited', route, retryAfterSeconds: 1, count: 1 }
              : { kind: 'internal', route, count: 1 },
          );
        const backoff = reactorBackoff({ minMs: 500, maxMs: 5_000, jitter: 0.5, random });
        const r = await retried(
          sleep,
          () => api(t, a, 'GET', path),
          (n, x) => (transient(x) ? x.retryAfterMs + backoff(n) : undefined),
        );
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
        await sleep(2_000);
      }
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": Go's net/http with a context deadline
  // per attempt (2 s) inside one of 20 s for the operation; a create held past 2 s is abandoned and
  // sent again with its key after a hand-written equal-jitter backoff.
  {
    does: 'is a Go net/http client with context.WithTimeout(2 s) per attempt inside a 20 s deadline: a create held 5 s is abandoned and sent again with its key after an equal-jitter backoff; a read retried through two 500s',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const backoff = goEqualJitter(1_000, 8_000, seeded(602));
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 5_000, count: 1 });
      const key = 'go-7c1e0b4a-create';
      const body = { ...CONNECTION, scopeLabel: 'Gopher Grill' };
      const r = await retried(
        sleep,
        () => api(t, a, 'POST', '/connections', { body, key, timeoutMs: 2_000 }),
        (n, x) => (transient(x) ? backoff(n) : undefined),
      );
      if (r.status !== 200) throw new Error(`the create answered ${r.status}`);
      await sleep(3_000);
      fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
      const again = goEqualJitter(1_000, 8_000, seeded(603));
      await retried(
        sleep,
        () => api(t, a, 'GET', '/connections', { timeoutMs: 2_000 }),
        (n, x) => (transient(x) ? again(n) : undefined),
      );
    },
  },
  // The service sees only the calls that reach it: httpx's `HTTPTransport(retries=3)` retries refused
  // connections (a sidecar still starting) on its own schedule, none of which arrives; the application
  // then sleeps each 429's Retry-After plus uniform(0, 0.3) s ("respect the wait time of the response").
  {
    does: 'is a Python httpx client with HTTPTransport(retries=3) whose first connects are refused (its egress sidecar still starting), then sleeps Retry-After plus a draw on each 429',
    pass: ['retry.respects-retry-after', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(604);
      const port = await closedPort();
      for (const backoffMs of [0, 500, 1_000]) {
        await sleep(backoffMs);
        await fetch(`http://127.0.0.1:${port}/api/public/v1/connections`).catch(() => undefined);
      }
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 1, count: 2 });
      for (const path of ['/connections', '/connectors']) {
        const r = await retried(
          sleep,
          () => api(t, a, 'GET', path),
          (_n, x) => (x.status === 429 ? x.retryAfterMs + Math.floor(random() * 300) : undefined),
        );
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
      }
    },
  },
  // "Retry guidance: retry only after rate_limited and internal" and "A sample client makes up to 4
  // attempts": a .NET HttpClientFactory client with a Polly v8 pipeline: hedging for reads (a second
  // copy after 1 s, the slower one cancelled), a retry (2 retries, exponential with jitter) and a
  // circuit breaker (opens after 3 failures for 10 s); the app's next read is the half-open probe.
  {
    does: 'is a .NET HttpClientFactory client with a Polly v8 pipeline: a read hedged after 1 s (the slow copy cancelled), then 2 jittered retries through an outage, the circuit breaker open for 10 s and the next scheduled read as its half-open probe',
    pass: ['retry.only-after-failure', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(605);
      fault(t, { kind: 'latency', route: 'listConnectors', latencyMs: 4_000, count: 1 });
      const before = held(t);
      const primary = abortable(t, a, 'GET', '/connectors');
      await untilHeld(t, before);
      await sleep(1_000);
      const hedge = await api(t, a, 'GET', '/connectors');
      primary.abort();
      await primary.reply;
      if (hedge.status !== 200) throw new Error(`the hedged read answered ${hedge.status}`);
      await sleep(2_000);
      fault(t, { kind: 'internal', route: 'listCapabilities', durationSeconds: 8 });
      const clock = t.sandbox.state.clock;
      let openUntil = 0;
      for (let tick = 0; tick < 4; tick++) {
        // While the circuit is open the call fails at once (BrokenCircuitException) and is never sent;
        // the first call after the break duration is the half-open probe.
        if (clock.now() >= openUntil) {
          const polly = pollyDecorrelatedJitterV2(500, random);
          const r = await retried(
            sleep,
            () => api(t, a, 'GET', '/capabilities'),
            (n, x) => (transient(x) ? polly(n + 1) : undefined),
            2,
          );
          if (r.status !== 200) openUntil = clock.now() + 10_000;
        }
        await sleep(6_000);
      }
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": reqwest-middleware's
  // RetryTransientMiddleware retries 5xx of any method; the key is a header of the RequestBuilder, so
  // each retry (a clone of the request) carries it. Bounded jitter: the first wait is exactly 500 ms.
  {
    does: 'is a Rust reqwest-middleware client (RetryTransientMiddleware, ExponentialBackoff 500 ms..8 s, Jitter::Bounded, 3 retries) creating three connections, each through three 500s, every retry a clone with its key',
    pass: ['retry.same-key-and-content', 'retry.growing-waits', 'retry.attempt-limit', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(606);
      for (let i = 0; i < 3; i++) {
        fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
        const wait = reqwestBounded(500, 8_000, random);
        const job = { key: uuid(random), body: { ...CONNECTION, scopeLabel: `Crab Shack ${i}` } };
        const r = await retried(
          sleep,
          () => api(t, a, 'POST', '/connections', job),
          (n, x) => (transient(x) ? wait(n) : undefined),
        );
        if (r.status !== 200) throw new Error(`create ${i} answered ${r.status}`);
        await sleep(1_500);
      }
    },
  },
  // "respect the wait time of the response, retry with growing intervals": Ktor's HttpRequestRetry with
  // retryOnServerErrors(3) and exponentialDelay() (respectRetryAfterHeader): the larger of 2^n s plus
  // up to 1 s and Retry-After. It retries POST too; the key set in the request builder stays.
  {
    does: 'is a Kotlin Ktor client with HttpRequestRetry (retryOnServerErrors(3), exponentialDelay() respecting Retry-After): a create through two 500s with its key, a read through a 429 with Retry-After: 3',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const delay = ktorExponential(seeded(607));
      const retryable = (x: Reply) => x.status === 429 || x.status >= 500 || x.status === 0;
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const job = { key: 'ktor-2f0c-9d7e-create', body: { ...CONNECTION, scopeLabel: 'Kotlin Kitchen' } };
      const r = await retried(
        sleep,
        () => api(t, a, 'POST', '/connections', job),
        (n, x) => (retryable(x) ? delay(n + 1, x) : undefined),
      );
      if (r.status !== 200) throw new Error(`the create answered ${r.status}`);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      await retried(
        sleep,
        () => api(t, a, 'GET', '/providers'),
        (n, x) => (retryable(x) ? delay(n + 1, x) : undefined),
      );
    },
  },
  // "A sample client makes up to 4 attempts and doubles the wait (500 ms times 2 to the power of the
  // attempt number) plus a random amount up to 250 ms": Faraday::Retry computes exactly that (interval
  // 0.5, backoff_factor 2, interval_randomness 0.5) and sleeps Retry-After when one comes.
  {
    does: 'is a Ruby Faraday client with Faraday::Retry (max 3, interval 0.5, backoff_factor 2, interval_randomness 0.5, GET only) reading three paths through 500s and a 429',
    pass: ['retry.growing-waits', 'retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = faradayRetry(seeded(608));
      fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 2 });
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 1 });
      for (const path of ['/connectors', '/capabilities', '/providers?category=pos']) {
        const r = await retried(
          sleep,
          () => api(t, a, 'GET', path),
          (n, x) => (transient(x) ? wait(n, x) : undefined),
        );
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
        await sleep(1_000);
      }
    },
  },
  // "the same key with the same content returns the same response again": a Sidekiq job with
  // `sidekiq_options retry: 3` carries its key in the job's arguments; each retry (Sidekiq's
  // count**4 + 15 + rand(10) * (count + 1) s) sends the create with it.
  {
    does: 'is a Sidekiq job (retry: 3, the default delay count**4 + 15 + rand(10)*(count+1) s) whose create fails three times with 500 and is retried with the key from the job arguments',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      // This seed draws 18 s twice, then 40 s: Sidekiq's schedule grows, one pair by chance not.
      const random = seeded(11 * 7919);
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const args = { key: 'sidekiq-jid-4be1c09a77', body: { ...CONNECTION, scopeLabel: 'Ruby Room' } };
      const r = await retried(
        sleep,
        () => api(t, a, 'POST', '/connections', args),
        (n, x) => (transient(x) ? sidekiqDelayMs(n, random) : undefined),
      );
      if (r.status !== 200) throw new Error(`the job ended with ${r.status}`);
    },
  },
];

export const WELL_BEHAVED_6: UnnamedClient2[] = [
  ...STACKS,
  ...MORE_WELL_BEHAVED_6,
  ...STREAM_CLIENTS_6,
  ...EDGE_WELL_BEHAVED_6,
];
