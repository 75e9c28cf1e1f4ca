import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { fleet } from './unnamed5-fleet.ts';
import { cenkalti, sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import {
  curlRetry,
  envoyBackoff,
  envoyResetHeader,
  goLinearJitter,
  goRetryFibonacci,
  guzzleExponentialDelay,
  pRetryTimeout,
} from './unnamed9-kit.ts';

/**
 * Round 9, well-behaved stacks (schedules in unnamed9-kit.ts). Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const STACKS_9: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread.": linear growth is growth, and
  // go-retryablehttp's LinearJitterBackoff draws once per retry. Only 5xx here (it never reads Retry-After).
  {
    does: 'is a Go service on hashicorp/go-retryablehttp with RetryMax 3 and Backoff: LinearJitterBackoff (min 400 ms, max 800 ms) over four reads through 500s',
    pass: ['retry.only-after-failure', 'retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = goLinearJitter(400, 800, seeded(901));
      for (const [route, path] of READS.slice(0, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await retrying(sleep, () => get(t, a, path), wait, { ignoreRetryAfter: true }));
        await sleep(3_000);
      }
    },
  },
  // "respect the wait time of the response" and "the same key with the same content returns the same
  // response again": Guzzle's `Middleware::retry($decider, $delay)` re-sends the same PSR-7 request
  // (its Idempotency-Key header with it); the delay callable takes the larger of Retry-After and
  // exponentialDelay plus random_int(0, 250).
  {
    does: 'is a PHP service on Guzzle’s retry middleware (decider: 429/5xx/ConnectException, max 3; delay: max(Retry-After, exponentialDelay + random_int(0, 250))) creating a connection through a 429 (Retry-After: 2) and a committed 500',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(902);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Elephant Lane Bistro' };
      const r = ok(
        'the create',
        await retrying(
          sleeper(t),
          () => api(t, a, 'POST', '/connections', { body, key: 'guzzle-5f2c81e0d4' }),
          (n, x) => Math.max(x.retryAfterMs, guzzleExponentialDelay(n + 1) + Math.floor(random() * 251)),
        ),
      );
      if (r.json?.meta?.replayed !== true) throw new Error('not replayed');
    },
  },
  // "retry only after rate_limited and internal": a Deno Deploy function wrapping fetch in p-retry
  // (retries 3, minTimeout 500, randomize: true) that throws AbortError on any 4xx but 429.
  {
    does: 'is a Deno Deploy function wrapping fetch in p-retry (retries 3, minTimeout 500 ms, randomize) that aborts on 4xx, over three reads through 500s and a capability check answered 404 once',
    pass: ['retry.only-after-failure', 'retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = pRetryTimeout({ minTimeoutMs: 500, randomize: seeded(903) });
      for (const [route, path] of READS.slice(1, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await retrying(sleep, () => get(t, a, path), wait));
        await sleep(2_000);
      }
      const check = { connectorId: 'no-such-connector-deno', capability: 'orders.read' };
      const r = await retrying(sleep, () => api(t, a, 'POST', '/capabilities', { body: check }), wait);
      if (r.status !== 404) throw new Error(`answered ${r.status}`);
    },
  },
  // "respect the wait time of the response": a Guzzle Pool (concurrency 4) of capability checks
  // through the retry middleware; the check answered 429 waits its Retry-After before it is sent again,
  // while the others complete.
  {
    does: 'is a PHP Guzzle Pool (concurrency 4) of six capability checks behind the retry middleware; the one answered 429 (Retry-After: 1) is sent again after max(Retry-After, 1 s + random_int(0, 250))',
    pass: ['retry.respects-retry-after', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const random = seeded(909);
      const caps = ['orders.read', 'orders.write', 'payments.refund', 'menu.read', 'menu.write', 'tables.read'];
      await fleet(
        t,
        caps.map((capability, i) => async (sleep) => {
          if (i === 2) fault(t, { kind: 'rate_limited', route: 'checkCapability', retryAfterSeconds: 1, count: 1 });
          const body = { connectorId: CONNECTION.connectorId, capability };
          ok(
            capability,
            await retrying(
              sleep,
              () => api(t, a, 'POST', '/capabilities', { body }),
              (n, x) => Math.max(x.retryAfterMs, guzzleExponentialDelay(n + 1) + Math.floor(random() * 251)),
            ),
          );
        }),
        caps.map((_, i) => Math.floor(i / 4) * 300 + (i % 4) * 10),
      );
    },
  },
  // An Envoy sidecar configured for the interface: retry_on 5xx + retriable-status-codes [429],
  // num_retries 3, retry_back_off base 500 ms, and rate_limited_retry_back_off reading Retry-After.
  // The buffered create is re-sent whole, headers and all, so its key goes with it.
  {
    does: 'sits behind an Envoy sidecar (retry_on 5xx,retriable-status-codes [429], num_retries 3, retry_back_off 500 ms, rate_limited_retry_back_off on retry-after) through a read’s 429 (Retry-After: 2), 500s and a create’s 503',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(904);
      const backoff = envoyBackoff(500, random, 5_000);
      const envoy = (n: number, r: { status: number; retryAfterMs: number }) =>
        r.status === 429 && r.retryAfterMs > 0 ? envoyResetHeader(r.retryAfterMs, random) : backoff(n);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      ok('providers', await retrying(sleep, () => get(t, a, '/providers'), envoy, { ignoreRetryAfter: true }));
      await sleep(2_000);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
      ok('connectors', await retrying(sleep, () => get(t, a, '/connectors'), envoy));
      await sleep(2_000);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Sidecar Smokehouse' };
      ok(
        'create',
        await retrying(sleep, () => api(t, a, 'POST', '/connections', { body, key: 'envoy-app-0001' }), envoy),
      );
    },
  },
  // A bash script: KEY=$(uuidgen) once at the top, then `curl --retry 3 -H "Idempotency-Key: $KEY"`.
  // curl retries the same request (500: 1 s; 429: its Retry-After since 7.66.0).
  {
    does: 'is a bash script making its key once (KEY=$(uuidgen)) and creating with curl --retry 3 through a committed 500 and a 429 (Retry-After: 2)',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Shell Script Shack' };
      const key = '6f1d2a0c-93b4-4e27-8d55-1c0a9e7b3f42';
      const r = ok(
        'the create',
        await retrying(
          sleeper(t),
          () => api(t, a, 'POST', '/connections', { body, key }),
          (n, x) => curlRetry(n, x),
        ),
      );
      if (r.json?.meta?.replayed !== true) throw new Error('not replayed');
    },
  },
  // "the same key with the same content returns the same response again": `curl --max-time 5 --retry 3`
  // gives up on a held create (a timeout is transient to curl) and sends it again, header and all.
  {
    does: 'is a bash script whose curl --max-time 5 --retry 3 gives up on a create held by the service and sends it again with its key 1 s later',
    // Not `retry.same-key-and-content: pass`: the call given up on is recorded only when the service's
    // hold ends (20 s), after this report; see the misbehaving twin in unnamed9-misbehaving-runs.ts.
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 20_000, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Max Time Tavern' };
      const key = 'curl-maxtime-4b7e19d2';
      const send = () => api(t, a, 'POST', '/connections', { body, key, timeoutMs: 5_000 });
      const r = ok('the create', await retrying(sleeper(t), send, (n, x) => curlRetry(n, x)));
      if (r.json?.meta?.replayed !== true) throw new Error('not replayed');
    },
  },
  // Rust's `backoff` crate (a port of cenkalti/backoff: 500 ms × 1.5, ±50 %) with max_elapsed_time of
  // 4 s: it stops when the next sleep would pass 4 s, so an outage of two 500s is ridden out.
  {
    does: 'is a Rust service using the backoff crate’s retry() with ExponentialBackoff { max_elapsed_time: Some(4 s), ..default } over three reads through two 500s each',
    pass: ['retry.attempt-limit', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [i, [route, path]] of READS.slice(0, 3).entries()) {
        fault(t, { kind: 'internal', route, count: 2 });
        const next = cenkalti(seeded(905 + i));
        let elapsed = 0;
        let r = await get(t, a, path);
        while (r.status >= 500 && elapsed < 4_000) {
          const ms = next();
          elapsed += ms;
          await sleep(ms);
          r = await get(t, a, path);
        }
        ok(path, r);
        await sleep(2_000);
      }
    },
  },
  // "growing intervals and slight random spread": sethvargo/go-retry's Fibonacci starts with two
  // equal terms (500 ms, 500 ms, then 1 s, 1.5 s), each ± 10 %. One equal pair of three is the schedule.
  {
    does: 'is a Go service on sethvargo/go-retry (WithMaxRetries(3, WithJitterPercent(10, NewFibonacci(500 ms)))) over five reads through three 500s each',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = goRetryFibonacci(500, seeded(908));
      for (const [route, path] of READS) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(path, await retrying(sleep, () => get(t, a, path), wait));
        await sleep(3_000);
      }
    },
  },
];
