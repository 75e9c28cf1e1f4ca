import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { fsharpSleep, httr2Backoff, kafkaStreamsBackoff, openrestySleep } from './unnamed17-kit.ts';

/**
 * Round 17, well-behaved clients (R httr2, OpenResty, F#, Pulumi, Kafka Streams). Each must get no `fail`;
 * the interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_17: UnnamedClient2[] = [
  // "A sample client makes up to 4 attempts": R httr2 `req_retry(max_tries = 4)`, whose default
  // is_transient takes 429 and 503 and whose default backoff draws runif(1, 1, 2^i) seconds.
  {
    does: 'is an R script on httr2 with req_retry(max_tries = 4) and its default runif(1, 1, 2^i) backoff, three reads each through three gateway 503s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const schedule = httr2Backoff(seeded(1701));
      await readsThrough(t, auth(t), sleeper(t), { schedule, failures: 3, max: 3, kind: 'unavailable' });
    },
  },
  // "respect the wait time of the response": httr2's default `after` reads a 429's Retry-After (seconds)
  // and sleeps exactly that instead of its backoff.
  {
    does: 'is an R httr2 req_retry() honouring a 429’s Retry-After (4 s) through its default after= hook',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 4, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors?category=pos'), httr2Backoff(seeded(1702)), 3));
    },
  },
  // "doubles the wait (500 ms times 2 to the power of the attempt number) plus a random amount up to 250 ms":
  // an OpenResty ngx.timer.at job on lua-resty-http, ngx.sleep(0.5 * 2^n + math.random() * 0.25).
  {
    does: 'is an OpenResty ngx.timer job on lua-resty-http sleeping 0.5 * 2^n + math.random() * 0.25 s, three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: openrestySleep(seeded(1703)),
        failures: 2,
        max: 3,
        from: 1,
      });
    },
  },
  // "the same key with the same content returns the same response again": OpenResty keys its create by
  // ngx.var.request_id (read once, before the retry loop), the connection dropped after commit.
  {
    does: 'is an OpenResty handler keying a create by ngx.var.request_id read once before its loop, sent again after the connection dropped after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1704);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const key = uuid(random).replaceAll('-', '');
      const body = { ...CONNECTION, scopeLabel: 'Lua Lantern Grill' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), openrestySleep(random), 3));
    },
  },
  // "Clients retry with growing intervals and slight random spread": F# on FsHttp with a `let rec attempt n`
  // async loop sleeping 400 * pown 2 n + rnd.Next(100, 300) ms, on 429 and 5xx only.
  {
    does: 'is an F# service on FsHttp with a recursive async retry (400 * pown 2 n + rnd.Next(100, 300) ms), three reads each through three 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: fsharpSleep(seeded(1705)), failures: 3, max: 3, from: 2 });
    },
  },
  // "the same key with the same content" and "respect the wait time": the F# create binds
  // `let key = Guid.NewGuid()` outside `attempt` and sleeps `resp.Headers.RetryAfter.Delta` after a 429.
  {
    does: 'is an F# create binding Guid.NewGuid() outside its recursive attempt, waiting RetryAfter.Delta (2 s) after a 429 under the same key',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1706);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      const key = uuid(random);
      const body = { ...CONNECTION, scopeLabel: 'Fsharp Fish Market' };
      const wait = (n: number, r: { retryAfterMs: number }) =>
        r.retryAfterMs > 0 ? r.retryAfterMs : fsharpSleep(random)(n);
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), wait, 3));
    },
  },
  // "the same key with the same content": a Pulumi dynamic provider's create() keys the call by a hash of
  // the resource URN, so the engine's retry of a failed create (a 500 after commit) sends the same key.
  {
    does: 'is a Pulumi dynamic provider whose create() keys the call by a hash of the resource URN, retried once after a 500 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = 'pulumi-urn-7f3a9c1e0b2d4e6f8a1c3e5b7d9f0a2c';
      const body = { ...CONNECTION, scopeLabel: 'Stack Street Kitchen' };
      replayed(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, key),
          () => 1_300,
          1,
        ),
      );
    },
  },
  // "the same key with the same content": a Kafka Streams processor keys each create by
  // `topic-partition-offset` of its input record; it gives up on a held call after 3 s and retries under it.
  {
    does: 'is a Kafka Streams processor keying creates by topic-partition-offset, giving up on a held create after 3 s and retrying it under that key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 10_000, count: 1 });
      const key = 'venues-v1-3-004211';
      const body = { ...CONNECTION, scopeLabel: 'Offset Oyster Bar' };
      const send = () => api(t, a, 'POST', '/connections', { body, key, timeoutMs: 3_000 });
      ok('create', await loop(sleeper(t), send, kafkaStreamsBackoff(seeded(1708)), 3));
    },
  },
  // "Clients retry with growing intervals": Kafka Streams processors on two instances (a token each, a
  // consumer group's members) reading the catalog while both get 500s, each on its own backoff.
  {
    does: 'runs two Kafka Streams instances with a token each, both reading the catalog through two 500s at the same time, each on its own backoff',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const first = auth(t, undefined, 3_600);
      const second = auth(t, undefined, 3_600);
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 4 });
      const one = (a: typeof first, seed: number) =>
        loop(sleep, () => get(t, a, '/capabilities'), kafkaStreamsBackoff(seeded(seed)), 3);
      const [x, y] = await Promise.all([one(first, 1709), one(second, 1719)]);
      ok('first', x);
      ok('second', y);
    },
  },
  // "retry with growing intervals" per operation: four Ray tasks sharing one token from the object store
  // read the providers at once, all four answered 500, each retrying once after its own draw.
  {
    does: 'runs four Ray tasks sharing one cached token, reading the providers at once, all answered 500, each retrying once after its own jittered wait',
    pass: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'listProviders', count: 4 });
      const first = await Promise.all([0, 1, 2, 3].map(() => get(t, a, '/providers')));
      if (first.some((r) => r.status !== 500)) throw new Error(`answered ${first.map((r) => r.status)}`);
      const random = seeded(1710);
      const waits = [0, 1, 2, 3].map(() => 500 + Math.floor(random() * 250));
      let slept = 0;
      for (const w of [...waits].sort((x, y) => x - y)) {
        await sleeper(t)(w - slept);
        slept = w;
        ok('retry', await get(t, a, '/providers'));
      }
    },
  },
];
