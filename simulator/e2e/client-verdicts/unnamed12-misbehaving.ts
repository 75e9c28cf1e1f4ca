import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import {
  catsFullJitter,
  cprLoop,
  dartRetry,
  heartbeatReconnects,
  kafkaSinkJitter,
  okHttpInterceptor,
} from './unnamed12-kit.ts';

/**
 * Round 12, misbehaving clients (retries and keys): each breaks one duty and must fail exactly that
 * rule (or the rules it breaks), with evidence. The sentence broken is quoted above each.
 */
export const MISBEHAVING_12: FaultyClient[] = [
  // "respect the wait time of the response": a cpr loop that treats a 429 like a 500 and sleeps its own
  // schedule (about 0.5, 1, 2 s) against a Retry-After of 4.
  {
    does: 'is a C++ cpr loop that treats a 429 (Retry-After: 4) like a 500 and sleeps its own 500 << n ms + draw',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 4, count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), cprLoop(seeded(1251)), 3));
    },
  },
  // "retry only after rate_limited and internal" and "token expired ... request a new access token": a
  // Ruby script's `rescue => e; sleep 10; retry` around the whole call, its expired token kept.
  {
    does: 'is a Ruby script whose `rescue => e; sleep 10; retry` sends the same read with its expired token three more times after 401s',
    fails: ['retry.only-after-failure', 'auth.renewed-after-expiry'],
    async run(t) {
      const a = auth(t, undefined, 60);
      const sleep = sleeper(t);
      ok('first', await get(t, a, '/connections'));
      await sleep(90_000);
      for (let i = 0; i < 4; i++) {
        const r = await get(t, a, '/connections');
        if (r.status !== 401) throw new Error(`answered ${r.status}`);
        if (i < 3) await sleep(10_000);
      }
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": an OkHttp *network* interceptor stamps a
  // UUID Idempotency-Key on every request it sees, so the application interceptor's retry goes out
  // under a new key.
  {
    does: 'is a Kotlin backend whose OkHttp network interceptor stamps a new UUID Idempotency-Key on every attempt, retrying a committed-then-500 create',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1253);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Interceptor Inn' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, uuid(random)), okHttpInterceptor(random), 3));
    },
  },
  // "A sample client makes up to 4 attempts": Dart's `retry` package on its defaults, maxAttempts 8.
  {
    does: 'is a Dart backend on package:retry’s defaults (maxAttempts 8) reading through six 500s: seven attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 6 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), dartRetry(seeded(1254)), 7));
    },
  },
  // "retry only after rate_limited and internal": Confluent's HTTP sink retries every status from 400
  // up by default (`retry.on.status.codes=400-`), so a record the service refuses 400 is sent again.
  {
    does: 'is a Kafka Connect HTTP sink on the default retry.on.status.codes=400-, sending a create refused 400 (a one-letter connectorId) three more times',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, connectorId: 'x', scopeLabel: 'Bad Record Bistro' };
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, 'connections-sink.venues-0.412'),
        kafkaSinkJitter(seeded(1255)),
        3,
        (x) => x.status >= 400,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "Clients retry with growing intervals": n8n's node setting Retry On Fail (Max Tries 3, Wait Between
  // Tries 1000 ms): the same second every time.
  {
    does: 'is an n8n HTTP Request node with Retry On Fail (Max Tries 3, Wait Between Tries 1000 ms) reading through two 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 2 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/capabilities'),
          () => 1_000,
          2,
        ),
      );
    },
  },
  // "Modifying calls are repeat-safe": cats-retry's retryingOnAllErrors around an IO that draws its
  // UUID key inside, so every retry of a 429'd create draws a new key.
  {
    does: 'is a Scala service whose cats-retry policy wraps an IO that draws the Idempotency-Key inside it, so a create refused 429 is retried under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1257);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Fiber Fish House' };
      const wait = (n: number) => Math.max(1_000, catsFullJitter(random)(n + 1) + 1_000);
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, `io-${uuid(random)}`), wait, 3));
    },
  },
  // "The interface is called from servers only ... never sent from a browser": the same Dart client code
  // compiled with Flutter for the web, calling from the browser with the partner's token.
  {
    does: 'is a Flutter app compiled for the web whose shared Dart API client sends the bearer token from the browser (Origin set)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = { origin: 'https://partner-app.web.app', 'sec-fetch-mode': 'cors' };
      await api(t, a, 'GET', '/connections', { headers });
    },
  },
  // "respect the wait time of the response": a Python retry helper that rebuilds the URL with
  // urlencode (space as +) where the first call was built with %20, and retries a 429 (Retry-After: 3)
  // after 300 ms. The same read to the service (both decode to "pos cloud").
  {
    does: 'retries a 429’d read (Retry-After: 3) after 300 ms, the retry’s URL rebuilt by urlencode (category=pos+cloud where the first sent pos%20cloud)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      const r = await get(t, a, '/providers?category=pos%20cloud');
      if (r.status !== 429) throw new Error(`answered ${r.status}`);
      await sleeper(t)(300);
      ok('retry', await get(t, a, '/providers?category=pos+cloud'));
    },
  },
  // "a 429 in it still must be waited out" (README) / "respect the wait time of the response": a Go
  // poller on a one-second time.Ticker keeps ticking through a 429 with Retry-After: 5.
  {
    does: 'is a Go poller on a 1 s time.Ticker that keeps polling GET /connections every second through a 429 with Retry-After: 5',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (let i = 0; i < 8; i++) {
        if (i === 3) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 5, count: 1 });
        const r = await get(t, a, '/connections');
        if ((i === 3) !== (r.status === 429)) throw new Error(`poll ${i} answered ${r.status}`);
        await sleep(1_000);
      }
    },
  },
  // "resumes without gaps by sending Last-Event-ID ... (last number read)": a consumer that hands each
  // message to an async handler queue and keeps, as its cursor, the id of the last message a handler
  // finished: one behind when the idle timeout closes the stream, so it reads that message again.
  {
    does: 'reconnects after every quiet spell with the id of the last message its async handler queue finished, one behind the last number read',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      await heartbeatReconnects(t, a, {
        rounds: 3,
        perRound: 3,
        between: sleeper(t),
        resume: (last) => (last === undefined ? undefined : last - 1),
      });
    },
  },
];
