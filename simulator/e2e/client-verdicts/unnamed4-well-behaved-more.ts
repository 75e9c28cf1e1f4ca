import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, type Reply, type UnnamedClient2 } from './unnamed-kit.ts';
import { axiosRetry, azureCore, seeded, stripe, underPolicy, uuid } from './unnamed4-kit.ts';
import { STREAM_CLIENTS_4 } from './unnamed4-well-behaved-streams.ts';

/**
 * Round 4, well-behaved: Stripe's and axios-retry's retry layers, Spring Reactor's retry spec, a k6-style
 * load script and a Kafka-style poller (their streams: unnamed4-well-behaved-streams.ts).
 */
export const MORE_WELL_BEHAVED_4: UnnamedClient2[] = [
  // "Modifying calls are repeat-safe through idempotency keys: the same key with the same content
  // returns the same response again.": stripe-node (maxNetworkRetries 1, its default) gives each POST an
  // Idempotency-Key of its own and sends it again on its one retry, after at least 0.5 s.
  {
    does: 'uses stripe-node style network retries (maxNetworkRetries 1, auto Idempotency-Key kept across the retry) on creates failed with 500 and a dropped connection',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const random = seeded(83);
      const policy = stripe(random);
      for (const [i, failWith] of (['internal', 'drop'] as const).entries()) {
        fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith, count: 1 });
        const key = `stripe-node-retry-${uuid(random)}`;
        const body = { ...CONNECTION, scopeLabel: `Stripe venue ${i}` };
        const r = await underPolicy(t, () => api(t, a, 'POST', '/connections', { body, key }), policy, 1);
        if (r.json?.meta?.replayed !== true) throw new Error(`create ${i} was not replayed (${r.status})`);
      }
    },
  },
  // "Retry guidance: retry only after rate_limited and internal.": axios-retry's default condition
  // (isNetworkOrIdempotentRequestError) retries GETs on 5xx and never a POST; with exponentialDelay the
  // waits double (200, 400, 800 ms plus up to 20 %).
  {
    does: 'uses axios-retry (retries 3, isNetworkOrIdempotentRequestError, retryDelay exponentialDelay) on three reads failing three times, and a POST left alone',
    pass: ['retry.only-after-failure', 'retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(89);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 3 });
        const policy = axiosRetry({ method: 'GET', delay: 'exponential', random });
        const r = await underPolicy(t, () => api(t, a, 'GET', path), policy, 3);
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
      }
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const post = axiosRetry({ method: 'POST', delay: 'exponential', random });
      await underPolicy(
        t,
        () => api(t, a, 'POST', '/connections', { body: CONNECTION, key: 'axios-create-0001' }),
        post,
        3,
      );
    },
  },
  // "Clients retry with growing intervals and slight random spread.": Reactor's
  // Retry.backoff(3, 500 ms).jitter(0.5) (minBackoff * 2^n, ± half of it), with .filter() so that only
  // 429 and 5xx are retried; the key is part of the request built once, outside the retried Mono.
  {
    does: 'uses Spring WebClient with Reactor Retry.backoff(3, 500 ms).jitter(0.5).filter(429 or 5xx) on capability checks and a create',
    pass: ['retry.only-after-failure', 'retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(97);
      const reactor = (n: number, x: Reply) => {
        if (!(x.status === 429 || x.status >= 500)) return undefined;
        const next = 500 * 2 ** (n - 1);
        return Math.max(x.retryAfterMs, next + (random() * 2 - 1) * next * 0.5);
      };
      for (const capability of ['orders.read', 'payments.refund', 'orders.write']) {
        fault(t, { kind: 'internal', route: 'checkCapability', count: 2 });
        const body = { connectorId: CONNECTION.connectorId, capability };
        await underPolicy(t, () => api(t, a, 'POST', '/capabilities', { body }), reactor, 3);
      }
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const request = { body: CONNECTION, key: `webclient-${uuid(random)}` };
      await underPolicy(t, () => api(t, a, 'POST', '/connections', request), reactor, 3);
    },
  },
  // "When exceeded, the service answers 429 with a wait time." and "respect the wait time of the
  // response": a k6-style script (one token from setup(), two virtual users, think time 1-2 s) that on a
  // 429 sleeps Retry-After before its next iteration; each user reads its own provider category.
  {
    does: 'runs a k6-style load script: two VUs sharing the setup() token, 1-2 s think time, sleeping Retry-After after a 429 of the real rate limit',
    pass: ['retry.respects-retry-after', 'auth.token-reused'],
    options: { rateLimit: { limit: 5, windowSeconds: 4 } },
    async run(t) {
      const a = auth(t, undefined, 3600);
      const random = seeded(101);
      let limited = 0;
      const vu = async (n: number) => {
        for (let iteration = 0; iteration < 6; iteration++) {
          const r = await api(t, a, 'GET', `/providers?category=vu-${n}`);
          if (r.status === 429) limited++;
          const think = 1000 + random() * 1000;
          await sleepOn(t, r.status === 429 ? Math.max(r.retryAfterMs, think) : think);
        }
      };
      await Promise.all([vu(1), vu(2)]);
      if (!limited) throw new Error('the script never met the rate limit');
    },
  },
  // "respect the wait time of the response, retry with growing intervals": the Azure SDK's pipeline
  // waits out Retry-After (throttling strategy) and otherwise doubles with equal jitter; it sends the
  // same request again, so a create keeps the key its caller set.
  {
    does: "uses the Azure SDK's default core-rest-pipeline retry (3 retries, Retry-After on 429/503, equal-jitter exponential from 1 s) on reads and a create",
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after', 'retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t, undefined, 3600);
      const policy = azureCore(seeded(109));
      for (const [route, path] of [
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 3 });
        await underPolicy(t, () => api(t, a, 'GET', path), policy, 3);
      }
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      await underPolicy(t, () => api(t, a, 'GET', '/providers'), policy, 3);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { body: CONNECTION, key: `azure-${uuid(seeded(113))}` };
      const r = await underPolicy(t, () => api(t, a, 'POST', '/connections', body), policy, 3);
      if (r.status !== 200) throw new Error(`the create answered ${r.status}`);
    },
  },
  // "use a new key for each new operation": a k6 script that creates the same connection every second
  // (constant pacing, a uuidv4() key per iteration, the payload from a fixture file) is a series of
  // operations; the iteration after a 429 is the next one, not a retry of the refused one. Its pacing
  // is no shorter than the Retry-After it meets ("respect the wait time of the response").
  {
    does: 'runs a k6-style create load: the same payload every second, a uuidv4() Idempotency-Key per iteration, through 429s of the real rate limit',
    pass: ['idempotency.one-key-one-content', 'retry.respects-retry-after'],
    options: { rateLimit: { limit: 4, windowSeconds: 5 } },
    async run(t) {
      const a = auth(t, undefined, 3600);
      const random = seeded(107);
      let limited = 0;
      for (let iteration = 0; iteration < 10; iteration++) {
        const r = await api(t, a, 'POST', '/connections', { body: CONNECTION, key: uuid(random) });
        if (r.status === 429) limited++;
        await sleepOn(t, Math.max(1000, r.retryAfterMs));
      }
      if (!limited) throw new Error('the script never met the rate limit');
    },
  },
  // "Clients retry with growing intervals and slight random spread.": a Kafka-client-style poller of the
  // audit log (fetch every 2 s; on an error retry.backoff.ms 100 doubling to retry.backoff.max.ms 1000,
  // ± 20 % jitter, as Kafka's ExponentialBackoff computes), which keeps its cadence once a fetch succeeds.
  {
    does: "polls the audit log like a Kafka consumer: every 2 s, failed fetches retried with Kafka's ExponentialBackoff (100 ms doubling, 20 % jitter)",
    pass: ['retry.only-after-failure', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t, undefined, 3600);
      const random = seeded(103);
      const backoff = (n: number) => Math.min(1000, 100 * 2 ** (n - 1)) * (0.8 + random() * 0.4);
      for (let poll = 0; poll < 12; poll++) {
        if (poll === 3 || poll === 8) fault(t, { kind: 'internal', route: '/api/public/v1/audit-log', count: 2 });
        await underPolicy(
          t,
          () => api(t, a, 'GET', '/audit-log?limit=10'),
          (n, x) => (x.status >= 500 ? backoff(n) : undefined),
          3,
        );
        await sleepOn(t, 2_000);
      }
    },
  },

  ...STREAM_CLIENTS_4,
];
