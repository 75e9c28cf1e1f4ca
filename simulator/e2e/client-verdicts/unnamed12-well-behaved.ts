import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import {
  catsFullJitter,
  cprLoop,
  dartRetry,
  kafkaSinkJitter,
  okHttpInterceptor,
  rubyHandRolled,
} from './unnamed12-kit.ts';

/**
 * Round 12, well-behaved clients (retry schedules and keys). Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_12: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread": a C++ service on cpr whose loop
  // sleeps `500 << n` ms plus a uniform draw of up to 300 ms, retrying 429, 5xx and transport errors.
  {
    does: 'is a C++ service on cpr with a hand-written loop (500 << n ms + uniform 0-300 ms, 3 retries), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1201);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleep, () => get(t, a, path), cprLoop(random), 3));
        await sleep(5_000);
      }
    },
  },
  // "the same key with the same content returns the same response again": a Ruby script on Net::HTTP
  // (read_timeout 5) rescuing Net::ReadTimeout and sending the create again with the key it made first.
  {
    does: 'is a Ruby script on Net::HTTP (read_timeout = 5) that rescues Net::ReadTimeout on a held create and sends it again with the same key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1202);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 6_000, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Net HTTP Noodles' };
      const key = 'ruby-nethttp-7d2e91ab';
      const first = await api(t, a, 'POST', '/connections', { body, key, timeoutMs: 5_000 });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(rubyHandRolled(random)(0) + 1_500);
      replayed('retry', await createWith(t, a, body, key));
    },
  },
  // "respect the wait time of the response": an OkHttp application interceptor that calls
  // chain.proceed(request) again with the same Request (its Idempotency-Key header included), waiting
  // at least the Retry-After.
  {
    does: 'is a Kotlin backend whose OkHttp application interceptor re-proceeds the same Request (key header kept) after a 429 with Retry-After: 3 and a 503',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 0, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'OkHttp Oyster Bar' };
      const wait = okHttpInterceptor(seeded(1203));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'okhttp-create-3e71c0'), wait, 3));
    },
  },
  // "A sample client makes up to 4 attempts": Dart's `retry` package with maxAttempts: 4 (its default
  // is 8), retrying only on 5xx, 429 and SocketException.
  {
    does: 'is a Dart backend on package:retry with RetryOptions(maxAttempts: 4) (200 ms x 2^attempt, ±25 %), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1204);
      for (const [route, path] of READS.slice(2, 5)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleep, () => get(t, a, path), dartRetry(random), 3));
        await sleep(4_000);
      }
    },
  },
  // "Modifying calls are repeat-safe": a Scala service on sttp with cats-retry's fullJitter(500 ms) and
  // limitRetries(3); the key is made once, outside the retried IO.
  {
    does: 'is a Scala service on sttp with cats-retry fullJitter(500.millis) join limitRetries(3), its key made outside the retried IO, through a committed 500 and a 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Cats Effect Cantina' };
      const wait = catsFullJitter(seeded(1205));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'sttp-io-4b1f8e22'), wait, 3));
    },
  },
  // "the same key with the same content": a Kafka Connect HTTP sink whose Idempotency-Key is the record's
  // topic-partition-offset, so a retried record carries the same key (max.retries 3, exponential-with-jitter).
  {
    does: 'is a Kafka Connect HTTP sink (max.retries 3, exponential-with-jitter 1 s) keyed by topic-partition-offset, two records each through a committed 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = kafkaSinkJitter(seeded(1206));
      for (const offset of [1841, 1842]) {
        fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
        const body = { ...CONNECTION, scopeLabel: `Kafka Venue ${offset}` };
        const key = `connections-sink.venues-3.${offset}`;
        replayed(String(offset), await loop(sleep, () => createWith(t, a, body, key), wait, 3));
        await sleep(200);
      }
    },
  },
  // "the same key with the same content returns the same response again": Zapier's autoreplay sends a
  // failed step again 5 and 30 minutes later with the step's stored key, a fresh OAuth token each run.
  {
    does: 'is a Zapier-style workflow step whose autoreplay sends a failed create again 5 and 30 minutes later with the step’s stored key, a fresh token each run',
    pass: [],
    async run(t) {
      const sleep = sleeper(t);
      const body = { ...CONNECTION, scopeLabel: 'Zap Replay Diner' };
      const key = 'zap-8812-step-3-run-55a1';
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const first = await createWith(t, auth(t), body, key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleep(5 * 60_000);
      const second = await createWith(t, auth(t), body, key);
      if (second.status !== 500) throw new Error(`replay 1 answered ${second.status}`);
      await sleep(25 * 60_000);
      ok('replay 2', await createWith(t, auth(t), body, key));
    },
  },
  // "respect the wait time of the response": sixteen reads fanned out at once (as an HTTP/2 client
  // multiplexes streams), each with its own query; those refused 429 wait out Retry-After plus a draw.
  {
    does: 'fans out sixteen different reads at once (as over HTTP/2 streams); the two refused 429 (Retry-After: 2) each wait 2 s plus a draw and succeed',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1208);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 2 });
      const paths = Array.from({ length: 16 }, (_, i) => `/providers?category=shard-${i}`);
      const first = await Promise.all(paths.map((p) => get(t, a, p)));
      const refused = paths.filter((_, i) => first[i]?.status === 429);
      if (refused.length !== 2) throw new Error(`${refused.length} refused`);
      await sleeper(t)(2_000 + Math.floor(random() * 250));
      for (const p of refused) ok(p, await get(t, a, p));
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a client whose clock runs 45 s ahead
  // compares the token's expiry with its own clock and renews once it thinks under 60 s are left (after
  // 195 s of a 300 s token: 105 s really left), calling every 15 s for 20 minutes.
  {
    does: 'runs with its clock 45 s ahead and renews 300 s tokens when it believes 60 s are left (105 s really left), reading every 15 s for 20 minutes',
    pass: [],
    async run(t) {
      const sleep = sleeper(t);
      const clock = () => t.sandbox.state.clock.now() + 45_000;
      let a = auth(t, undefined, 300);
      let exp = t.sandbox.state.clock.now() + 300_000;
      for (let i = 0; i < 80; i++) {
        if (exp - clock() < 60_000) {
          a = auth(t, undefined, 300);
          exp = t.sandbox.state.clock.now() + 300_000;
        }
        ok('read', await get(t, a, i % 2 ? '/connections' : '/capabilities'));
        await sleep(15_000);
      }
    },
  },
  // "unauthorized ... token expired ... request a new access token": a client whose clock runs 120 s
  // behind still believes its 300 s token valid after expiry; the 401 tells it, and it renews at once
  // and sends the read again with the new token.
  {
    does: 'runs with its clock 120 s behind, so it uses its 300 s token past expiry; each 401 makes it renew at once and send the read again, reading every 20 s for 15 minutes',
    pass: ['auth.renewed-after-expiry'],
    async run(t) {
      const sleep = sleeper(t);
      const clock = () => t.sandbox.state.clock.now() - 120_000;
      let a = auth(t, undefined, 300);
      let exp = t.sandbox.state.clock.now() + 300_000;
      let refused = 0;
      for (let i = 0; i < 45; i++) {
        if (exp - clock() < 30_000) {
          a = auth(t, undefined, 300);
          exp = t.sandbox.state.clock.now() + 300_000;
        }
        const path = i % 2 ? '/connections' : '/providers';
        let r = await get(t, a, path);
        if (r.status === 401) {
          refused++;
          a = auth(t, undefined, 300);
          exp = t.sandbox.state.clock.now() + 300_000;
          r = await get(t, a, path);
        }
        ok('read', r);
        await sleep(20_000);
      }
      if (refused === 0) throw new Error('no 401 seen');
    },
  },
  // "A read ... polled at a fixed cadence that keeps it through failures is polling": an Apps Script
  // time-driven trigger every minute lists connections; five polls in a row answer 500 and it simply
  // polls again at the next minute, as it always does.
  {
    does: 'is a Google Apps Script time-driven trigger polling GET /connections every minute, keeping its cadence through five 500s in a row',
    pass: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      const sleep = sleeper(t);
      for (let i = 0; i < 12; i++) {
        if (i === 4) fault(t, { kind: 'internal', route: 'listConnections', count: 5 });
        const r = await get(t, a, '/connections');
        if ((i >= 4 && i < 9) !== (r.status === 500)) throw new Error(`poll ${i} answered ${r.status}`);
        await sleep(60_000);
      }
    },
  },
];
