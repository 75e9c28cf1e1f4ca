import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import {
  gaxGo,
  guavaRetrying,
  inngestBackoff,
  nodeRetry,
  opnieuwFullJitter,
  raxExponential,
  readsThrough,
  triggerDev,
  windmill,
} from './unnamed13-kit.ts';

/**
 * Round 13, well-behaved clients (retry schedules and keys). Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_13: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread": a Trigger.dev task with
  // retry { maxAttempts: 4, factor: 1.8, minTimeoutInMs: 1000, maxTimeoutInMs: 10000, randomize: true }.
  {
    does: 'is a Trigger.dev task (maxAttempts 4, factor 1.8, minTimeoutInMs 1000, randomize) reading three paths each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const random = seeded(1301);
      const schedule = triggerDev({ factor: 1.8, minMs: 1_000, maxMs: 10_000, randomize: true }, random);
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 2, max: 3 });
    },
  },
  // "the same key with the same content returns the same response again": an Inngest function whose
  // step.run('create-connection') uses `${event.id}:create-connection` as its key, retries: 3.
  {
    does: 'is an Inngest function (retries: 3) whose step keys its create by event id and step name, retried 10 s later after a committed 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Inngest Izakaya' };
      const key = '01JDQ8ZK4X9R3T6V2B7N5M1C0P:create-connection';
      replayed('step', await loop(sleeper(t), () => createWith(t, a, body, key), inngestBackoff(seeded(1302)), 3));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a Restate handler makes its key with
  // ctx.rand.uuidv4() (seeded by the invocation id, recorded in the journal); the pod dies mid-create,
  // another pod replays the journal with its own token and sends the same key again.
  {
    does: 'is a Restate handler whose key comes from ctx.rand.uuidv4(); its pod dies while a create is held, and the replay on another pod (own token) sends the same key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const random = seeded(1303);
      const key = uuid(random);
      const body = { ...CONNECTION, scopeLabel: 'Restate Rotisserie' };
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 20_000, count: 1 });
      const first = await api(t, auth(t), 'POST', '/connections', { body, key, timeoutMs: 3_000 });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_200 + Math.floor(random() * 300));
      replayed('replay', await createWith(t, auth(t), body, key));
    },
  },
  // "respect the wait time of the response": a Go service coalescing identical reads with
  // singleflight.Group: ten goroutines ask for /connectors, one call goes out and is refused 429; the
  // leader sleeps Retry-After plus a draw and calls once more, every waiter gets that answer.
  {
    does: 'is a Go service coalescing ten identical reads with singleflight: the one call is refused 429 (Retry-After: 2), the leader waits 2 s plus a draw and calls once more',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1304);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      let flight: Promise<unknown> | undefined;
      const coalesced = () =>
        (flight ??= loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          (_, r) => r.retryAfterMs + Math.floor(random() * 250),
          3,
        ));
      const all = await Promise.all(Array.from({ length: 10 }, coalesced));
      for (const r of all) ok('waiter', r as Awaited<ReturnType<typeof get>>);
    },
  },
  // "retry only after rate_limited and internal ... growing intervals": an opossum breaker around a 2 s
  // poller (errorThresholdPercentage 50, resetTimeout 30 s): three 500s at its cadence open it, the
  // fallback serves the cached list, and the half-open probe 30 s later succeeds.
  {
    does: 'polls GET /connections every 2 s behind an opossum breaker; three 500s open it, it serves its cache, and the half-open probe 30 s later succeeds',
    pass: [],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      let failures = 0;
      for (let i = 0; i < 14; i++) {
        if (i === 5) fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
        const r = await get(t, a, '/connections');
        failures = r.status === 500 ? failures + 1 : 0;
        if (failures === 3) {
          await sleep(30_000);
          failures = 0;
          continue;
        }
        await sleep(2_000);
      }
    },
  },
  // "growing intervals and slight random spread": async-retry with { retries: 3, factor: 2,
  // minTimeout: 500, randomize: true } (node-retry's formula), each read through two 503s.
  {
    does: 'is a Node service on async-retry ({ retries: 3, minTimeout: 500, randomize: true }) reading three paths each through two 503s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const schedule = nodeRetry({ minMs: 500, factor: 2, randomize: true }, seeded(1306));
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 2, max: 3, from: 1, kind: 'unavailable' });
    },
  },
  // "respect the wait time of the response": retry-axios (rax) with checkRetryAfter (its default) waits
  // a 429's Retry-After: 3, then its own exponential 1500 ms after a 500.
  {
    does: 'is an axios instance with retry-axios (exponential, checkRetryAfter) through a 429 with Retry-After: 3 and then a 500',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      fault(t, { kind: 'internal', route: 'listProviders', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), raxExponential, 3));
    },
  },
  // "the same key with the same content": guava-retrying's Retryer around a Callable that holds the key
  // it was built with (exponentialWait joined with randomWait, stopAfterAttempt(4)), two creates.
  {
    does: 'is a Java job with guava-retrying (exponentialWait joined with randomWait 250 ms, stopAfterAttempt 4), two creates each through a committed 500 and a 500',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1308);
      for (const venue of ['Guava Grill', 'Retryer Rooftop']) {
        fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
        fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        const key = `guava-${uuid(random)}`;
        const body = { ...CONNECTION, scopeLabel: venue };
        replayed(venue, await loop(sleep, () => createWith(t, a, body, key), guavaRetrying(random), 3));
        await sleep(3_000);
      }
    },
  },
  // "growing intervals": opnieuw's @retry(max_calls_total=4, retry_window_after_first_call_in_seconds=60),
  // full jitter; three reads each through three 500s.
  {
    does: 'is a Python service on opnieuw (@retry max_calls_total=4, full jitter) reading three paths each through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const schedule = opnieuwFullJitter(seeded(1309));
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 3, max: 3, from: 2 });
    },
  },
  // "growing intervals and slight random spread": a Go service on gax-go's Backoff (Initial 1 s,
  // Multiplier 1.3, full jitter under a growing cap), three reads each through two 503s.
  {
    does: 'is a Go service on gax-go Backoff{Initial: 1s, Multiplier: 1.3} (full jitter) reading three paths each through two 503s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const schedule = gaxGo(seeded(1310));
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 2, max: 3, kind: 'unavailable' });
    },
  },
  // "growing intervals and slight random spread": a Windmill script with retry.exponential
  // { attempts: 3, multiplier: 1, seconds: 2, random_factor: 20 }.
  {
    does: 'is a Windmill script (retry.exponential attempts 3, seconds 2, random_factor 20) reading three paths each through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const schedule = windmill(seeded(1311));
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 3, max: 3, from: 1 });
    },
  },
];
