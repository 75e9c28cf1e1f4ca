import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { alternate } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { warmSocket } from './unnamed25-socket.ts';
import { atLeastRetryAfter, effectJittered, quartzReschedule, tanstackDelay } from './unnamed26-kit.ts';

/**
 * Round 26, well-behaved clients whose correct behaviour looks like a violation: a second identical
 * operation right after a success, workers on one token refused 429 together, a failover with a renewed
 * token, a stream resumed by another process at the other address, one renewal for a secret rotation,
 * speculative reads on a pre-opened socket, a sibling's read beside a failure, a key generation retried.
 */
export const EDGES_WELL_BEHAVED_26: UnnamedClient2[] = [
  // "use a new key for each new operation": a venue with two identical tills books the same connection
  // twice, the second under its own key 200 ms after the first succeeded: a second operation, no retry.
  {
    does: 'books the same connection twice for two identical tills, the second under a new key 200 ms after the first succeeded',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Twin Tills Taqueria' };
      ok('first', await createWith(t, a, body, 'till-one-7d0e41b2'));
      await sleeper(t)(200);
      ok('second', await createWith(t, a, body, 'till-two-7d0e41b3'));
    },
  },
  // "respect the wait time of the response": two workers sharing one cached token create two connections at
  // once; both are refused 429 (Retry-After 2) and each waits it plus its own draw.
  {
    does: 'runs two workers on one cached token creating two connections at once, both refused 429 (Retry-After 2 s), each waiting it plus its own draw',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 2 });
      const random = seeded(2611);
      await Promise.all(
        ['Worker Wontons', 'Worker Waffles'].map((label, i) =>
          loop(
            sleeper(t),
            () => createWith(t, a, { ...CONNECTION, scopeLabel: label }, `pool-worker-${i}-4be1c0d9`),
            (_n, r) => r.retryAfterMs + Math.round(random() * 400),
            3,
          ).then((r) => ok(label, r)),
        ),
      );
    },
  },
  // "request a new access token" and "the same key with the same content": a 503 trips a breaker for 25 s;
  // the 20 s token expired meanwhile, so the retry goes to the second address with a renewed token, same key.
  {
    does: 'fails over after a create’s 503 and a 25 s breaker pause to the second address with a renewed token (the 20 s one expired), same key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Breaker Bibimbap' };
      const first = await createWith(t, auth(t, undefined, 20), body, 'breaker-op-2c9e11f0');
      if (first.status !== 503) throw new Error(`answered ${first.status}`);
      await sleeper(t)(25_000);
      ok('failover', await createWith(alternate(t), auth(t), body, 'breaker-op-2c9e11f0'));
    },
  },
  // "resumes without gaps by sending ... the query parameter cursor": the consumer's pod dies after a cut;
  // its replacement (a new token) resumes 40 s later at the second address from the persisted number.
  {
    does: 'has its stream cut after three messages; the replacement pod (new token) resumes 40 s later at the second address with ?cursor=3',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      if (ids.at(-1) !== 3) throw new Error(`read ${ids.join()}`);
      await sleeper(t)(40_000);
      publish(t, a.tenant, 2);
      const more = await readStream(alternate(t), auth(t), { cursor: 3, asQuery: true, idleMs: 600 });
      if (more[0] !== 4) throw new Error(`resumed at ${more[0]}`);
    },
  },
  // "rotate the secret regularly": a service polling every 30 s rotates its client secret at a fixed hour and
  // fetches a token with the new secret, though the old one had 50 minutes left: one renewal, not churn.
  {
    does: 'polls every 30 s and fetches one new token when its client secret is rotated, 10 minutes into a 1 h token',
    pass: [],
    async run(t) {
      let a = auth(t, undefined, 3_600);
      for (let i = 0; i < 30; i++) {
        if (i === 20) a = auth(t, undefined, 3_600);
        ok('poll', await get(t, a, i % 2 ? '/connections' : '/capabilities'));
        await sleeper(t)(30_000);
      }
    },
  },
  // "Retry guidance": a client hedging a read opens a spare connection ahead of need, sends the same read on
  // both at once; both are refused 500, and it retries once after 700 ms.
  {
    does: 'sends one read on a fresh and a pre-opened connection at once, both refused 500, then retries it once after 700 ms',
    pass: [],
    async run(t) {
      const a = auth(t);
      const spare = await warmSocket(t);
      await sleeper(t)(5_000);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
      const [x, y] = await Promise.all([get(t, a, '/connectors'), spare.send(a, 'GET', '/connectors')]);
      spare.close();
      if (x.status !== 500 || y.status !== 500) throw new Error(`answered ${x.status}, ${y.status}`);
      await sleeper(t)(700);
      ok('retry', await get(t, a, '/connectors'));
    },
  },
  // "respect the wait time of the response ... retry with growing intervals": a 429 asks 3 s; the client's own
  // waits after two 500s that follow (500 ms, then 1 s) are shorter than the server's but grow.
  {
    does: 'waits a 429’s Retry-After of 3 s, then its own 500 ms and 1 s (plus a draw) after two 500s, on three reads',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const own = effectJittered(seeded(2616));
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listCapabilities', '/capabilities'],
        ['listConnections', '/connections'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 3, count: 1 });
        fault(t, { kind: 'internal', route, count: 2 });
        let mine = 0;
        ok(
          path,
          await loop(
            sleeper(t),
            () => get(t, a, path),
            (_n, r) => (r.status === 429 ? r.retryAfterMs : own(mine++)),
            3,
          ),
        );
        await sleeper(t)(5_000);
      }
    },
  },
  // "A read of one process is never a repeat of another's": pods A and B (a token each) read the same list at
  // once; A is refused 500 and retries after 700 ms, B got its answer and reads again 300 ms later (its loop).
  {
    does: 'has pod A retry a read refused 500 after 700 ms while pod B (own token), answered at once, reads the same list again 300 ms later',
    pass: [],
    async run(t) {
      const [pa, pb] = [auth(t), auth(t)];
      fault(t, { kind: 'internal', route: 'listProviders', count: 1 });
      const [x] = await Promise.all([get(t, pa, '/providers'), get(t, pb, '/providers')]);
      if (x.status !== 500) throw new Error(`A answered ${x.status}`);
      await sleeper(t)(300);
      ok('B again', await get(t, pb, '/providers'));
      await sleeper(t)(400);
      ok('A retry', await get(t, pa, '/providers'));
    },
  },
  // "POST /idempotency-keys ... generate an idempotency key": the key request (a POST that needs no key) is
  // refused 500 and retried; the create under the key it got is refused 500 and retried under it.
  {
    does: 'retries POST /idempotency-keys after a 500, then the create under the key it got after another 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const wait = quartzReschedule(seeded(2618));
      fault(t, { kind: 'internal', route: 'createIdempotencyKey', count: 1 });
      const issued = ok(
        'key',
        await loop(
          sleeper(t),
          () => api(t, a, 'POST', '/idempotency-keys', { body: { operation: 'connection.create' } }),
          wait,
          3,
        ),
      );
      const key = String(issued.json?.data?.idempotencyKey);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      ok(
        'create',
        await loop(sleeper(t), () => createWith(t, a, { ...CONNECTION, scopeLabel: 'Issued Idli' }, key), wait, 3),
      );
    },
  },
  // "growing intervals": an OpenTelemetry-instrumented client sends a new traceparent on every attempt; the
  // attempts are still one read, waits doubling from 1 s plus a draw, three reads through two 500s.
  {
    does: 'sends a new OpenTelemetry traceparent on every attempt of three reads, each through two 500s, TanStack-style waits',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const random = seeded(2619);
      const wait = tanstackDelay(random);
      for (const [route, path] of [
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
        ['listConnections', '/connections'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 2 });
        const trace = () =>
          `00-${Math.floor(random() * 2 ** 52)
            .toString(16)
            .padStart(32, '0')}-${'1'.repeat(16)}-01`;
        ok(path, await loop(sleeper(t), () => api(t, a, 'GET', path, { headers: { traceparent: trace() } }), wait, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "the same key with the same content": a retry through a gateway that re-orders the JSON object and pads
  // it with spaces, to the route spelt with a trailing slash, after a 429 waited out.
  {
    does: 'retries a create after a 429 (Retry-After 1 s) through a gateway that re-orders and pads the JSON and adds a trailing slash to the path, same key',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Gateway Gnocchi' };
      const first = await createWith(t, a, body, 'gateway-op-51aa09c3');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(first.retryAfterMs + 120);
      const raw = JSON.stringify(Object.fromEntries(Object.entries(body).reverse()), null, 2);
      ok('retry', await api(t, a, 'POST', '/connections/', { raw, key: 'gateway-op-51aa09c3' }));
    },
  },
  // The rest of the Effect-TS family: a create whose first answer is a 503 with Retry-After; the schedule
  // sleeps the larger of it and its own draw.
  {
    does: 'is an Effect-TS create through a 503 with Retry-After 2 s and a 500, sleeping the larger of Retry-After and its own jittered draw',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Effect Enchiladas' };
      const wait = atLeastRetryAfter(effectJittered(seeded(2620)));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'effect-fiber-9e2f3a40'), wait, 3));
    },
  },
];
