import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import {
  afterRetryAfter,
  akkaBackoff,
  crystalRetriable,
  denoStdRetry,
  ferdRandIncrement,
  sample,
  vertxJitter,
} from './unnamed15-kit.ts';

/**
 * Round 15, well-behaved clients (schedules and Retry-After). Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_15: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread": an Erlang service on hackney whose
  // retry loop steps ferd/backoff with rand_increment (500 ms start, 8 s cap), one backoff per request.
  {
    does: 'is an Erlang service on hackney stepping ferd/backoff rand_increment (500 ms, cap 8 s) per request, three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const random = seeded(1501);
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 2 });
        const next = ferdRandIncrement(random);
        ok(
          path,
          await loop(
            sleep,
            () => get(t, a, path),
            () => next(),
            3,
          ),
        );
        await sleep(5_000);
      }
    },
  },
  // "the same key with the same content returns the same response again": Erlang gun, the key made with
  // uuid:get_v4() in the gen_server's state before the first gun:post, the connection dropped after commit.
  {
    does: 'is an Erlang gen_server on gun keeping its create’s key in its state, retrying a create dropped after commit with that key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1502);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const key = `gun-${uuid(random)}`;
      const body = { ...CONNECTION, scopeLabel: 'Gun Smoke Grill' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), sample(random), 3));
    },
  },
  // "respect the wait time of the response": OCaml cohttp-lwt reading `Cohttp.Header.get headers
  // "retry-after"` as float seconds, Lwt_unix.sleep of that plus a small draw.
  {
    does: 'is an OCaml cohttp-lwt client sleeping Retry-After (2 s, read as float seconds) plus a draw after a 429 on a capability check',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1503);
      fault(t, { kind: 'rate_limited', route: 'checkCapability', retryAfterSeconds: 2, count: 1 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'payments.refund' };
      const send = () => api(t, a, 'POST', '/capabilities', { body });
      ok('check', await loop(sleeper(t), send, afterRetryAfter(random, sample(random)), 3));
    },
  },
  // "growing intervals and slight random spread": Crystal's retriable shard (max_attempts 4, base
  // 0.5 s, multiplier 1.5, rand_factor 0.5) around HTTP::Client reads.
  {
    does: 'is a Crystal service using the retriable shard (4 attempts, base 0.5 s, multiplier 1.5, rand_factor 0.5), three reads each through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: crystalRetriable(seeded(1504)), failures: 3, max: 3 });
    },
  },
  // "the same key with the same content" and "respect the wait time": a Gleam service (gleam_httpc) whose
  // create goes through a gateway 503 and a 429 (Retry-After: 1) under the key made before its loop.
  {
    does: 'is a Gleam service on gleam_httpc retrying a create through a gateway 503 and a 429 (Retry-After: 1) under one key',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1505);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 0, count: 1 });
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const key = `gleam-${uuid(random)}`;
      const body = { ...CONNECTION, scopeLabel: 'Gleam Garden Cafe' };
      ok(
        'create',
        await loop(sleeper(t), () => createWith(t, a, body, key), afterRetryAfter(random, sample(random)), 3),
      );
    },
  },
  // "the same key with the same content": Java 11 java.net.http.HttpClient with `.timeout(2s)` on the
  // request; the HttpTimeoutException's catch sends the same HttpRequest (its key header built in) again.
  {
    does: 'is a Java 11 HttpClient service resending the same HttpRequest (key built in) after an HttpTimeoutException at 2 s on a held create',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1506);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 10_000, count: 1 });
      const key = `java11-${uuid(random)}`;
      const body = { ...CONNECTION, scopeLabel: 'Java Eleven Espresso' };
      const send = () => api(t, a, 'POST', '/connections', { body, key, timeoutMs: 2_000 });
      replayed('create', await loop(sleeper(t), send, sample(random), 3));
    },
  },
  // "growing intervals and slight random spread": Deno std/async retry configured as the sample
  // (maxAttempts 4, minTimeout 500, multiplier 2, jitter 0.5: each delay cut by up to half).
  {
    does: 'is a Deno service wrapping fetch in std/async retry({ maxAttempts: 4, minTimeout: 500, multiplier: 2, jitter: 0.5 }), three reads through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const schedule = denoStdRetry(seeded(1507), { minTimeout: 500, multiplier: 2, jitter: 0.5 });
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 3, max: 3, from: 1 });
    },
  },
  // "Clients retry with growing intervals and slight random spread": a Vert.x WebClient behind a
  // CircuitBreaker (maxRetries 3, retryPolicy exponentialDelayWithJitter(500, 8000): full jitter).
  {
    does: 'is a Vert.x WebClient behind a CircuitBreaker with maxRetries(3) and exponentialDelayWithJitter(500, 8000), four reads each through two 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: vertxJitter(seeded(1508)), failures: 2, max: 3, ops: 4 });
    },
  },
  // "growing intervals and slight random spread": Akka HTTP with RetrySupport.retry(attempts = 3,
  // minBackoff = 500 ms, maxBackoff = 5 s, randomFactor = 0.2).
  {
    does: 'is an Akka HTTP client under RetrySupport.retry(attempts 3, 500 ms to 5 s, randomFactor 0.2), three reads each through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: akkaBackoff(seeded(1509)), failures: 3, max: 3, from: 2 });
    },
  },
  // "respect the wait time of the response": a ServiceNow IntegrationHub REST step whose retry policy
  // honours Retry-After (5 s) on a 429, else waits 1 s doubling.
  {
    does: 'is a ServiceNow IntegrationHub REST step whose retry policy honours Retry-After (5 s) on a 429 of a connections read',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 5, count: 1 });
      const wait = (n: number, r: { retryAfterMs: number }) => (r.retryAfterMs > 0 ? r.retryAfterMs : 1_000 * 2 ** n);
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), wait, 3));
    },
  },
];
