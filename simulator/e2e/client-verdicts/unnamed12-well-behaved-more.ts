import { auth, CONNECTION, fault, READS, type Reply, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { fleet, pod } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import {
  appsScript,
  heartbeatReconnects,
  httr2Backoff,
  kafkaSinkJitter,
  openResty,
  powerAutomate,
  symfonyGeneric,
} from './unnamed12-kit.ts';

/** Three reads of READS from `from`, each through `fails` 500s, under one schedule, `rest` ms apart. */
const threeReads =
  (
    seed: number,
    from: number,
    fails: number,
    wait: (r: () => number) => (n: number, x: Reply) => number,
    max = 3,
    rest = 5_000,
  ) =>
  async (t: Parameters<UnnamedClient2['run']>[0]) => {
    const a = auth(t);
    const sleep = sleeper(t);
    const w = wait(seeded(seed));
    for (const [route, path] of READS.slice(from, from + 3)) {
      fault(t, { kind: 'internal', route, count: fails });
      ok(path, await loop(sleep, () => get(t, a, path), w, max));
      await sleep(rest);
    }
  };

/** Round 12, more well-behaved clients: other runtimes, workflow tools and a stream consumer. */
export const WELL_BEHAVED_MORE_12: UnnamedClient2[] = [
  // "resumes without gaps by sending Last-Event-ID ... (last number read)": an SSE client whose idle
  // timeout (400 ms) is shorter than the heartbeat interval: it reconnects after every quiet spell,
  // each time with the last number read.
  {
    does: 'reads the stream with an idle timeout shorter than the heartbeat interval, so it reconnects after every quiet spell (four times), each time with Last-Event-ID of the last number read',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const seen = await heartbeatReconnects(t, a, {
        rounds: 5,
        perRound: 2,
        between: sleeper(t),
        resume: (last) => last,
      });
      if (seen.length !== 10 || new Set(seen).size !== 10) throw new Error(`read ${seen.join(',')}`);
    },
  },
  // "respect the wait time of the response, retry with growing intervals": Symfony's RetryableHttpClient
  // with GenericRetryStrategy (1 s, x2, jitter 0.1), which sleeps a Retry-After when one is sent.
  {
    does: 'is a PHP Symfony RetryableHttpClient (GenericRetryStrategy 1 s, x2, jitter 0.1, max_retries 3) reading through a 429 (Retry-After: 4) and then two 500s',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 4, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), symfonyGeneric(seeded(1212)), 3));
    },
  },
  // "doubles the wait (500 ms times 2 to the power of the attempt number) plus a random amount up to
  // 250 ms": the guidance in Lua, an OpenResty gateway calling the service with resty.http.
  {
    does: 'is an OpenResty gateway (lua-resty-http, ngx.sleep(0.5 * 2^n + math.random() * 0.25)), three reads each through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: threeReads(1213, 0, 3, openResty),
  },
  // "growing intervals and slight random spread": Google Apps Script's documented exponential backoff
  // around UrlFetchApp.fetch (2^n s + up to 1 s), three attempts.
  {
    does: 'is a Google Apps Script trigger around UrlFetchApp.fetch with the documented backoff (2^n s + Math.random() s), three reads each through two 500s',
    pass: ['retry.growing-waits'],
    run: threeReads(1214, 2, 2, appsScript, 2),
  },
  // "respect the wait time of the response": R httr2's req_retry(max_tries = 4), which waits a 429's
  // Retry-After and otherwise draws between 1 and 2^i s.
  {
    does: 'is an R job on httr2 with req_retry(max_tries = 4) reading through a 429 (Retry-After: 2), a 500 and a 503',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 1 });
      fault(t, { kind: 'unavailable', route: 'listCapabilities', retryAfterSeconds: 0, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), httr2Backoff(seeded(1215)), 3));
    },
  },
  // "Lasting high load is to be agreed beforehand": a Go client on x/time/rate that reads
  // X-RateLimit-Remaining and, with under 3 calls left, waits a second before the next: no 429 at all.
  {
    does: 'is a Go poller on golang.org/x/time/rate that slows down when X-RateLimit-Remaining runs low, thirty reads without a refusal',
    pass: [],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (let i = 0; i < 30; i++) {
        const res = await t.fetch(`${t.baseUrl}/api/public/v1/connectors?providerId=p${i % 5}`, {
          headers: {
            authorization: `Bearer ${a.token}`,
            'x-service-tenant': a.tenant,
            'service-version': '2026-07-01',
          },
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`answered ${res.status}`);
        const left = Number(res.headers.get('x-ratelimit-remaining') ?? 100);
        await sleep(left < 3 ? 1_000 : 250);
      }
    },
  },
  // "A sample client makes up to 4 attempts": a Kafka Connect sink with errors.tolerance=all sends a
  // record that failed 4 attempts to its dead-letter topic; an operator replays it 10 minutes later with
  // the same topic-partition-offset key.
  {
    does: 'is a Kafka Connect HTTP sink whose record fails 4 attempts, goes to the dead-letter topic and is replayed 10 minutes later with the same offset key',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const body = { ...CONNECTION, scopeLabel: 'Dead Letter Deli' };
      const key = 'connections-sink.venues-1.9077';
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const r = await loop(sleep, () => createWith(t, a, body, key), kafkaSinkJitter(seeded(1217)), 3);
      if (r.status !== 500) throw new Error(`answered ${r.status}`);
      await sleep(10 * 60_000);
      ok('replay', await createWith(t, auth(t), body, key));
    },
  },
  // "retry with growing intervals": an n8n workflow that, instead of the node's Retry On Fail, loops
  // through a Wait node of `{{ 2 ** $runIndex + Math.random() }}` seconds, three tries.
  {
    does: 'is an n8n workflow looping through a Wait node of 2^runIndex + random seconds after an HTTP Request node fails, three reads each through two 500s',
    pass: ['retry.growing-waits'],
    run: threeReads(1218, 1, 2, (r) => (n) => Math.round((2 ** n + r()) * 1_000), 2, 8_000),
  },
  // "up to 4 attempts ... growing intervals": a Power Automate HTTP action with a custom exponential
  // policy (count 3, interval PT7S), creating with the key the flow run made.
  {
    does: 'is a Power Automate flow whose HTTP action has a custom exponential retry policy (count 3, interval PT7S), creating through a committed 500 and a 500 with the run’s key',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Flow Run Falafel' };
      const wait = powerAutomate(seeded(1219));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'pa-run-08585-create'), wait, 3));
    },
  },
  // "the same key with the same content returns the same response again": after a consumer-group
  // rebalance, task 2 sends again, with the offset key, a record task 1 had created but not committed
  // (at-least-once); the README names such a sibling's delivery no repeat.
  {
    does: 'is a Kafka Connect sink whose consumer group rebalances: task 2 sends again, with the offset key, a record task 1 had created successfully but not yet committed',
    pass: [],
    async run(t) {
      const body = { ...CONNECTION, scopeLabel: 'Rebalance Rotisserie' };
      const key = 'connections-sink.venues-2.7311';
      const [one, two] = [pod(t, 'connect-task-1', 1291), pod(t, 'connect-task-2', 1292)];
      await fleet(
        t,
        [
          async (sleep) => {
            ok('task 1', await createWith(t, one.auth, body, key));
            await sleep(3_000);
            ok('task 1 read', await get(t, one.auth, '/providers?category=task-1'));
          },
          async (sleep) => {
            ok('task 2 read', await get(t, two.auth, '/providers?category=task-2'));
            await sleep(2_000);
            replayed('task 2', await createWith(t, two.auth, body, key));
          },
        ],
        [0, 100],
      );
    },
  },
  // "the same key with the same content returns the same response again": eight creates multiplexed at
  // once (as HTTP/2 streams); the connection goes away under three of them, and the stack sends those
  // three again at once on a new connection, each with its own key (a GOAWAY'd stream is safe to retry).
  {
    does: 'sends eight different creates at once (as HTTP/2 streams); three lose their connection and are sent again at once, each with its own key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 3 });
      const ops = Array.from({ length: 8 }, (_, i) => ({
        body: { ...CONNECTION, scopeLabel: `Multiplexed Venue ${i}` },
        key: `h2-stream-${String(2 * i + 1).padStart(4, '0')}`,
      }));
      const first = await Promise.all(ops.map((o) => createWith(t, a, o.body, o.key)));
      const lost = ops.filter((_, i) => first[i]?.status === 0);
      if (lost.length !== 3) throw new Error(`${lost.length} lost`);
      const again = await Promise.all(lost.map((o) => createWith(t, a, o.body, o.key)));
      for (const r of again) replayed('again', r);
    },
  },
];
