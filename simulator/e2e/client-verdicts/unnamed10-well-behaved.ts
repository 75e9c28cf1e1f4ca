import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import { pollyDecorrelatedJitterV2, seeded } from './unnamed4-kit.ts';
import { fleet, guidanceWait } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { backon, diehard, now, stampedKey } from './unnamed10-kit.ts';

/**
 * Round 10, well-behaved clients (retries and keys). Each must get no `fail`; the interface sentence
 * that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_10: UnnamedClient2[] = [
  // "respect the wait time of the response": a pool of three workers behind one token shares one
  // rate-limit budget: every 429 moves the budget's reset to its answer plus Retry-After, and each
  // worker sleeps until that reset plus a draw of its own before its retry.
  {
    does: 'runs a pool of three workers on one token sharing one rate-limit budget; their three reads refused 429 (Retry-After: 2) each wait until the budget’s reset plus a draw',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      let resetAt = 0;
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 3 });
      await fleet(
        t,
        [0, 1, 2].map((w) => async (sleep) => {
          const random = seeded(1001 + w);
          for (let job = 0; job < 3; job++) {
            const path = `/providers?category=pool-${w}-${job}`;
            let r = await get(t, a, path);
            for (let n = 0; n < 3 && r.status === 429; n++) {
              resetAt = Math.max(resetAt, now(t) + r.retryAfterMs);
              await sleep(resetAt - now(t) + 50 + Math.floor(random() * 200));
              r = await get(t, a, path);
            }
            ok(path, r);
            await sleep(100);
          }
        }),
        [0, 15, 30],
      );
    },
  },
  // "a key sent along with a read or a capability check means nothing": an SDK that stamps a fresh
  // Idempotency-Key on every POST, so a capability check retried after a 500 carries a new one each time.
  {
    does: 'stamps a fresh Idempotency-Key on every POST, so its capability checks retried after 500s (guidance waits) carry a new key per attempt',
    pass: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1002);
      for (const capability of ['orders.read', 'payments.refund']) {
        fault(t, { kind: 'internal', route: 'checkCapability', count: 2 });
        const body = { connectorId: CONNECTION.connectorId, capability };
        ok(
          capability,
          await retrying(
            sleep,
            () => api(t, a, 'POST', '/capabilities', { body, key: stampedKey(random, 'sdk') }),
            guidanceWait(random),
          ),
        );
        await sleep(2_000);
      }
    },
  },
  // The same sentence for reads: a fetch wrapper that stamps a UUID Idempotency-Key on every request,
  // GETs included, through 500s retried on the guidance's schedule.
  {
    does: 'stamps a new UUID Idempotency-Key on every request, GETs included, retrying three reads through two 500s each on the guidance schedule',
    pass: ['retry.growing-waits', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1003);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(
          path,
          await retrying(
            sleep,
            () => api(t, a, 'GET', path, { key: stampedKey(random, 'uuid') }),
            guidanceWait(random),
          ),
        );
        await sleep(3_000);
      }
    },
  },
  // "the same key with the same content returns the same response again": a correlation id used as the
  // create's Idempotency-Key and also sent on the lookup after it (a GET, where a key is not looked at).
  {
    does: 'sends its create’s Idempotency-Key also on the GET /connections lookup after a dropped create, then retries the create with that key',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const key = 'corr-3b9e0c71-lookup';
      const body = { ...CONNECTION, scopeLabel: 'Correlated Canteen' };
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const first = await api(t, a, 'POST', '/connections', { body, key });
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleep(600);
      ok('lookup', await api(t, a, 'GET', '/connections', { key }));
      await sleep(400);
      const again = ok('create', await api(t, a, 'POST', '/connections', { body, key }));
      if (again.json?.meta?.replayed !== true) throw new Error('not replayed');
    },
  },
  // ".NET AddStandardResilienceHandler": Polly v8 retries (3, exponential with jitter, 2 s base,
  // Retry-After honoured) on every method; the cloned request keeps its Idempotency-Key header.
  {
    does: 'is a .NET HttpClientFactory client with AddStandardResilienceHandler (3 retries, exponential jitter from 2 s, Retry-After honoured, POST included) creating through a committed 500 and a 429 (Retry-After: 3)',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const polly = pollyDecorrelatedJitterV2(2_000, seeded(1004));
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Resilience Handler Roastery' };
      const r = ok(
        'create',
        await retrying(
          sleeper(t),
          () => api(t, a, 'POST', '/connections', { body, key: 'dotnet-9a1f00c2' }),
          (n, x) => (x.retryAfterMs > 0 ? x.retryAfterMs : Math.round(polly(n + 1))),
          { ignoreRetryAfter: true },
        ),
      );
      if (r.json?.meta?.replayed !== true) throw new Error('not replayed');
    },
  },
  // "respect the wait time of the response" across a long outage: the service's Retry-After grows
  // (10 s, 20 s, 40 s), the client waits each and stops at 4 attempts.
  {
    does: 'waits out three 429s whose Retry-After grows (10 s, 20 s, 40 s) on one read and succeeds on its fourth attempt',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const asked = [10, 20, 40];
      let n = 0;
      const random = seeded(1005);
      const r = await retrying(
        sleeper(t),
        () => {
          const ra = asked[n++];
          if (ra) fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: ra, count: 1 });
          return get(t, a, '/connectors');
        },
        (_n, x) => x.retryAfterMs + 100 + Math.floor(random() * 150),
      );
      ok('connectors', r);
    },
  },
  // "Clients retry with growing intervals and slight random spread": Rust backon's
  // ExponentialBuilder::default().with_jitter() (1 s, 2 s, 4 s, each plus random(0..delay)).
  {
    does: 'is a Rust service on backon’s ExponentialBuilder::default().with_jitter() (3 retries from 1 s, doubling, plus up to the delay again) over four reads through two 500s each',
    pass: ['retry.growing-waits', 'retry.spread', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = backon(seeded(1006));
      for (const [route, path] of READS.slice(0, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await retrying(sleep, () => get(t, a, path), wait));
        await sleep(5_000);
      }
    },
  },
  // The same sentence: Clojure diehard with :backoff-ms [500 8000 2.0] :jitter-factor 0.25, :max-retries 3.
  {
    does: 'is a Clojure service under diehard’s with-retry {:retry-on 5xx/429 :max-retries 3 :backoff-ms [500 8000 2.0] :jitter-factor 0.25} over four reads through two 500s each',
    pass: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = diehard(seeded(1007));
      for (const [route, path] of READS.slice(1, 5)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await retrying(sleep, () => get(t, a, path), wait));
        await sleep(4_000);
      }
    },
  },
  // "a key sent along with a read ... means nothing to the service": a tracing middleware puts the
  // operation id in Idempotency-Key on every call, so the reads before and after a create carry the
  // create's key; only the create's content goes with it on the route that requires one.
  {
    does: 'puts its operation id in Idempotency-Key on every call, so the GETs before and after a create (retried after a 429 with Retry-After: 1) carry the create’s key',
    pass: ['idempotency.one-key-one-content', 'retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1008);
      for (const [i, scopeLabel] of ['Traced Tapas', 'Traced Teahouse'].entries()) {
        const key = `op-4d2f-${i}`;
        ok('before', await api(t, a, 'GET', '/connections', { key }));
        if (i === 0) fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
        const body = { ...CONNECTION, scopeLabel };
        ok(
          scopeLabel,
          await retrying(sleep, () => api(t, a, 'POST', '/connections', { body, key }), guidanceWait(random)),
        );
        ok('after', await api(t, a, 'GET', '/connectors', { key }));
        await sleep(1_000);
      }
    },
  },
];
