import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, READS, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { now } from './unnamed10-kit.ts';
import {
  camelRedelivery,
  createWith,
  daprExponential,
  goRetryJitterPercent,
  loop,
  pekkoRestart,
  replayed,
} from './unnamed11-kit.ts';

/** Round 11, well-behaved clients (timeouts, tokens, sidecars, streams). Each must get no `fail`. */
export const WELL_BEHAVED_MORE_11: UnnamedClient2[] = [
  // "retry only after rate_limited and internal" (and a call that never came back): a Bun fetch wrapper
  // with AbortSignal.timeout(2000) gives up on a held read and retries it after a backoff.
  {
    does: 'is a Bun fetch wrapper with AbortSignal.timeout(2000) that gives up on a read held 5 s and retries it 600 ms later',
    pass: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'listConnectors', latencyMs: 5_000, count: 1 });
      const first = await api(t, a, 'GET', '/connectors', { timeoutMs: 2_000 });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleepOn(t, 600);
      ok('retry', await get(t, a, '/connectors'));
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a setInterval renews 10-minute tokens every
  // 9 min 10 s (50 s before expiry) while the service reads every 20 s for 30 minutes.
  {
    does: 'renews its 10-minute token on a timer every 9 min 10 s (50 s before expiry) while reading every 20 s for 30 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      let a = auth(t, undefined, 600);
      let renewAt = now(t) + 550_000;
      const paths = ['/providers', '/connectors', '/capabilities', '/connections'];
      for (let i = 0; i < 90; i++) {
        if (now(t) >= renewAt) {
          a = auth(t, undefined, 600);
          renewAt += 550_000;
        }
        ok('read', await get(t, a, paths[i % paths.length] ?? '/providers'));
        await sleep(20_000);
      }
    },
  },
  // "growing intervals and slight random spread": sethvargo/go-retry WithJitterPercent(10,
  // NewExponential(500ms)) and WithMaxRetries(3).
  {
    does: 'is a Go service on sethvargo/go-retry (NewExponential(500ms), WithJitterPercent(10), WithMaxRetries(3)), four reads each through two 500s',
    pass: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1111);
      for (const [route, path] of READS.slice(0, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleep, () => get(t, a, path), goRetryJitterPercent(random), 3));
        await sleep(3_000);
      }
    },
  },
  // "respect the wait time of the response": Apache HttpClient 5's DefaultHttpRequestRetryStrategy
  // (one retry, Retry-After honoured for 429 and 503, idempotent methods only): a GET retried after its
  // 429, a POST answered 503 left to the application, which gives up.
  {
    does: 'is a Java client on Apache HttpClient 5’s DefaultHttpRequestRetryStrategy: a read retried once after Retry-After: 2, a create answered 503 not retried',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          (_n, r) => r.retryAfterMs,
          1,
        ),
      );
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const r = await createWith(t, a, { ...CONNECTION, scopeLabel: 'Apache Alehouse' }, 'hc5-create-0001');
      if (r.status !== 503) throw new Error(`answered ${r.status}`);
    },
  },
  // "the same key with the same content returns the same response again": a Dapr sidecar's resiliency
  // policy (exponential, maxRetries 3) retries the app's create, forwarding its headers (the key).
  {
    does: 'calls through a Dapr sidecar whose resiliency policy (exponential, 500 ms x1.5, randomization 0.5, maxRetries 3) retries a create with the app’s Idempotency-Key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1112);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Sidecar Sushi' };
      replayed(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, 'dapr-app-create-31'), daprExponential(random), 3),
      );
    },
  },
  // "growing intervals and slight random spread": Apache Camel's redelivery policy with exponential
  // back-off and collision avoidance (±15 %), three reads each through two 503s.
  {
    does: 'is an Apache Camel route (redeliveryDelay 1000, exponential x2, collisionAvoidanceFactor 0.15, maximumRedeliveries 3), three reads each through two 500s',
    pass: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1113);
      for (const [route, path] of READS.slice(1, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleep, () => get(t, a, path), camelRedelivery(random), 3));
        await sleep(6_000);
      }
    },
  },
  // Quarkus SmallRye Fault Tolerance @Retry(maxRetries = 3, delay = 400, jitter = 200) with
  // @ExponentialBackoff(factor = 2): `400 * 2^n` moved by up to ±200 ms.
  {
    does: 'is a Quarkus service with @Retry(maxRetries = 3, delay = 400, jitter = 200) and @ExponentialBackoff, three capability checks each through two 500s',
    pass: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1114);
      for (const capability of ['orders.read', 'payments.refund', 'orders.read']) {
        fault(t, { kind: 'internal', route: 'checkCapability', count: 2 });
        const body = { connectorId: CONNECTION.connectorId, capability, environment: 'sandbox' };
        ok(
          capability,
          await loop(
            sleep,
            () => api(t, a, 'POST', '/capabilities', { body }),
            (n) => 400 * 2 ** n + Math.round((random() * 2 - 1) * 200),
            3,
          ),
        );
        await sleep(5_000);
      }
    },
  },
  // "After an interruption, the client resumes without gaps": a Pekko RestartSource.withBackoff
  // around the SSE source, resuming with Last-Event-ID after each of two cuts.
  {
    does: 'reads the stream through Pekko’s RestartSource.withBackoff (1 s, x2, randomFactor 0.2), resuming with Last-Event-ID after each of two cuts',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const backoff = pekkoRestart(seeded(1115));
      let last: number | undefined;
      for (let restart = 0; restart < 3; restart++) {
        if (restart < 2) fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
        const ids = await readStream(t, a, {
          ...(last === undefined ? {} : { cursor: last }),
          idleMs: 600,
          onOpen: () => publish(t, a.tenant, 3),
        });
        last = ids.at(-1) ?? last;
        await sleepOn(t, backoff(restart));
      }
    },
  },
  // "GET /api/public/v1/stream ... public": a browser dashboard reads the stream with EventSource, no
  // credentials (an Origin header, no Authorization): nothing secret leaves the browser.
  {
    does: 'is a browser dashboard reading the public stream with EventSource (Origin header, no token), resuming by Last-Event-ID after a cut',
    pass: [],
    async run(t) {
      const a = auth(t);
      const headers = { origin: 'https://ops-dashboard.example' };
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readStream(t, undefined, { headers, idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      await sleepOn(t, 3_000);
      await readStream(t, undefined, { headers, cursor: ids.at(-1) ?? 0, idleMs: 400 });
    },
  },
  // "resumes without gaps by sending ... cursor (last number read)": a consumer that acknowledges in
  // batches of 5 to its own store, and after a cut resumes from the last number it read (and commits it).
  {
    does: 'acknowledges stream messages in batches of 5 but, after a cut at 8, resumes from the last number read (8), not the last committed (5)',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      let committed = 0;
      fault(t, { kind: 'stream_cut', afterMessages: 8, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 8) });
      for (const id of ids) if (id % 5 === 0) committed = id;
      const last = ids.at(-1) ?? committed;
      await sleepOn(t, 1_000);
      await readStream(t, a, { cursor: last, asQuery: true, idleMs: 400 });
    },
  },
];
