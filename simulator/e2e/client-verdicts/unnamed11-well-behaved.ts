import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { fleet, pod } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import {
  arrowJittered,
  createWith,
  hangfireDelayMs,
  loop,
  replayed,
  springExponentialRandom,
  stepFunctionsFull,
} from './unnamed11-kit.ts';

/**
 * Round 11, well-behaved clients (retry schedules and keys). Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_11: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread": Spring Retry's
  // @Retryable(maxAttempts = 3) with ExponentialRandomBackOffPolicy, retrying only 5xx and 429.
  {
    does: 'is a Spring Boot service with @Retryable(maxAttempts = 3) and ExponentialRandomBackOffPolicy (500 ms, x2), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1101);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleep, () => get(t, a, path), springExponentialRandom(random), 2));
        await sleep(5_000);
      }
    },
  },
  // "the same key with the same content returns the same response again": a Step Functions Task state
  // whose Idempotency-Key is the execution name plus the state name, so every Retry of the state sends
  // the same key (JitterStrategy FULL, MaxAttempts 3).
  {
    does: 'is an AWS Step Functions Task with a Retry block (1 s, BackoffRate 2, FULL jitter, MaxAttempts 3) whose key is the execution name, creating through a committed 500 and a 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1102);
      const key = 'exec-onboard-harbour-7f3a:CreateConnection';
      const body = { ...CONNECTION, scopeLabel: 'Step Functions Smokehouse' };
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), stepFunctionsFull(random), 3));
    },
  },
  // "respect the wait time of the response": a Swift Vapor backend reading Retry-After with
  // `headers.first(name:)` (case-insensitive) before its own doubling wait.
  {
    does: 'is a Swift Vapor backend (AsyncHTTPClient, headers.first(name: "Retry-After")) creating through a 429 with Retry-After: 2 and a gateway 503, one key',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1103);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 0, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Vapor Noodle Bar' };
      const own = (n: number) => 500 * 2 ** n + Math.floor(random() * 250);
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'vapor-7d1c9e40-create'),
          (n, r) => Math.max(own(n), r.status === 429 ? r.retryAfterMs : 0),
          3,
        ),
      );
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a serverless function cold-starting on every
  // invocation (no token cache) fetches a token each time; a scheduler invokes it once a minute.
  {
    does: 'is a serverless function cold-starting on each of five invocations a minute apart, fetching a new token each time for a read and a capability check',
    pass: [],
    async run(t) {
      const sleep = sleeper(t);
      for (let i = 0; i < 5; i++) {
        const a = auth(t);
        ok('connections', await get(t, a, '/connections'));
        const body = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
        ok('check', await api(t, a, 'POST', '/capabilities', { body }));
        await sleep(60_000);
      }
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": two replicas share one key store (a
  // Redis hash keyed by job id); replica A's create is dropped, replica B picks the job up and finds
  // the key A stored for it. Both replicas are busy with reads at the time (two processes).
  {
    does: 'runs two replicas sharing one idempotency key store keyed by job id; replica A’s create is dropped and replica B sends it again 2 s later with the stored key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const store = new Map<string, string>();
      const body = { ...CONNECTION, scopeLabel: 'Shared Store Bakery' };
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const [ra, rb] = [pod(t, 'replica-a', 1104), pod(t, 'replica-b', 1105)];
      const keyFor = (job: string, mint: () => string) => store.get(job) ?? store.set(job, mint()).get(job) ?? '';
      let handedOver = false;
      await fleet(
        t,
        [
          async (sleep) => {
            ok('a read', await get(t, ra.auth, '/providers?category=replica-a'));
            await sleep(300);
            const r = await createWith(t, ra.auth, body, keyFor('job-4411', ra.key));
            if (r.status !== 0) throw new Error(`answered ${r.status}`);
            handedOver = true;
          },
          async (sleep) => {
            ok('b read', await get(t, rb.auth, '/providers?category=replica-b'));
            await sleep(2_500);
            if (!handedOver) throw new Error('nothing to take over');
            replayed('takeover', await createWith(t, rb.auth, body, keyFor('job-4411', rb.key)));
          },
        ],
        [0, 100],
      );
    },
  },
  // "the same key with the same content returns the same response again": Hangfire's
  // AutomaticRetry(Attempts = 3) re-runs the job with its arguments, the key among them.
  {
    does: 'is a Hangfire job with [AutomaticRetry(Attempts = 3)] (delays (a-1)^4 + 15 + rand(30)*a s) creating with the key in its arguments through a committed 500 and a 500',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1106);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Hangfire Grill' };
      replayed(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'hangfire-job-88213'),
          (n) => hangfireDelayMs(n + 1, random),
          3,
        ),
      );
    },
  },
  // "growing intervals and slight random spread": Arrow's Schedule.exponential(250ms).jittered()
  // zipped with recurs(3), in a Kotlin service. (Seed 1107 drew a near-arithmetic run, 0.03, 0.78, 0.08,
  // 0.76, 0.12, 0.75: six same-position waits within 20 ms, which retry.spread fairly reads as no spread.)
  {
    does: 'is a Kotlin service on Arrow’s Schedule.exponential(250.milliseconds).jittered() and recurs(3), three reads each through two 500s',
    pass: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1117);
      for (const [route, path] of READS.slice(2, 5)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleep, () => get(t, a, path), arrowJittered(random), 3));
        await sleep(4_000);
      }
    },
  },
  // "Clients retry with growing intervals": a client whose OpenTelemetry instrumentation stamps a new
  // traceparent and X-Request-Id on each attempt; the Idempotency-Key and the body stay.
  {
    does: 'is OpenTelemetry-instrumented (a new traceparent and X-Request-Id per attempt) and retries a committed-then-500 create with the same key and body',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1108);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Traced Tavern' };
      const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
      replayed(
        'create',
        await loop(
          sleeper(t),
          () =>
            createWith(t, a, body, 'otel-create-5c2e', {
              traceparent: `00-${hex(32)}-${hex(16)}-01`,
              'x-request-id': hex(12),
            }),
          (n) => 500 * 2 ** n + Math.floor(random() * 250),
          3,
        ),
      );
    },
  },
  // "the same key with the same content": a retry whose JSON writes é as \u00e9 (another encoder) is the
  // same content as the first attempt's literal é (the service compares canonical JSON).
  {
    does: 'retries a dropped create whose scopeLabel holds an é, the retry written by another encoder as \\u00e9, under the same key',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Café Ébène' };
      const key = 'unicode-create-2f81';
      const first = await api(t, a, 'POST', '/connections', { body, key });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(700);
      const raw = JSON.stringify(body).replace(
        /[\u0080-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
      replayed('retry', await api(t, a, 'POST', '/connections', { raw, key }));
    },
  },
  // "idempotency_required ... Remedy: send the key": a client written before 2026-06-12 gets a 428,
  // fetches a key from POST /idempotency-keys and sends the create with it: the remedy, not a repeat.
  {
    does: 'was written before keys were required: its create is refused 428, it fetches a key from POST /idempotency-keys and sends the create with it',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Legacy Lunch Room' };
      const bare = await api(t, a, 'POST', '/connections', { body });
      if (bare.status !== 428) throw new Error(`answered ${bare.status}`);
      await sleeper(t)(200);
      const k = ok('key', await api(t, a, 'POST', '/idempotency-keys', { body: { operation: 'connection.create' } }));
      ok('create', await createWith(t, a, body, String(k.json?.data?.idempotencyKey)));
    },
  },
];
