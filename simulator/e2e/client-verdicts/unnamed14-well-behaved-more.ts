import { held, sleepOn, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { abortable, sleeper, tokenBucket } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { now } from './unnamed10-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';

/**
 * Round 14, more well-behaved clients: hedged reads, workflow engines whose retries run elsewhere (Zeebe
 * workers, Argo pods, Newman), a BFF pausing every user after a 429, syncs hours apart, a stream
 * consumer resuming across restarts. Each must get no `fail`.
 */
export const WELL_BEHAVED_MORE_14: UnnamedClient2[] = [
  // "A call arriving while the client still awaits P is a parallel call" (rules README): a hedged read
  // (a second GET after 300 ms without an answer, the slower one cancelled once one answers).
  {
    does: 'hedges a slow GET /providers with a second copy after 300 ms, takes the copy’s answer and cancels the first',
    pass: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'listProviders', latencyMs: 5_000, count: 1 });
      const before = held(t);
      const first = abortable(t, a, 'GET', '/providers');
      await untilHeld(t, before);
      await sleepOn(t, 300);
      const hedge = abortable(t, a, 'GET', '/providers');
      ok('hedge', await hedge.reply);
      first.abort();
      await first.reply;
    },
  },
  // "After an interruption, the client resumes without gaps by sending Last-Event-ID": a consumer that
  // writes the last id read to disk; the server cuts the stream, the process dies, a
  // supervisor starts a new one 20 s later (new token), which sends the id from disk. Twice.
  {
    does: 'keeps the last event id on disk across two process restarts (each with a new token, 20 s later) and resumes with Last-Event-ID',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      let onDisk: number | undefined;
      for (let life = 0; life < 3; life++) {
        const a = auth(t);
        if (life < 2) fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
        const ids = await readStream(t, a, { cursor: onDisk, idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
        if (onDisk !== undefined && ids[0] !== onDisk + 1) throw new Error(`life ${life} resumed at ${ids[0]}`);
        onDisk = ids.at(-1) ?? onDisk;
        await sleepOn(t, 20_000);
      }
    },
  },
  // "respect the wait time of the response, retry with growing intervals": .NET HttpClientFactory with
  // AddResilienceHandler (retry: ShouldRetryAfterHeader, Exponential, UseJitter, Delay 1 s, 3 attempts).
  {
    does: 'is a .NET typed HttpClient with AddResilienceHandler (ShouldRetryAfterHeader, exponential with jitter): Retry-After: 4 waited, then its own backoff after a 500',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1413);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 4, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
      const wait = (n: number, r: { retryAfterMs: number }) =>
        r.retryAfterMs > 0 ? r.retryAfterMs : Math.round(1_000 * 2 ** n * (0.8 + random() * 0.4));
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), wait, 3));
    },
  },
  // "the same key with the same content returns the same response again": Elixir Finch with
  // receive_timeout: 2_000 and a hand-written retry that keeps the request struct (and its key).
  {
    does: 'is an Elixir Finch client (receive_timeout 2 s) whose own retry reuses the built request, key included, after a held create',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1414);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 20_000, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Finch Fonda' };
      const key = `finch-${uuid(random)}`;
      const send = () => api(t, a, 'POST', '/connections', { body, key, timeoutMs: 2_000 });
      const wait = (n: number) => 1_000 * 2 ** n + Math.floor(random() * 300);
      replayed('create', await loop(sleeper(t), send, wait, 3));
    },
  },
  // "a failed create sent again by a sibling is its retry, key or no key" (rules README): Camunda 8
  // (Zeebe) job workers; the job key is the Idempotency-Key, failJob sets retryBackOff 1 s then 2 s, and
  // the job is activated by worker B, then worker A again (each its own token).
  {
    does: 'is a pair of Zeebe job workers (own tokens) keying a create by the job key; failJob with retryBackOff 1 s, 2 s hands it to worker B, then A',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const workerA = auth(t);
      const workerB = auth(t);
      const random = seeded(1415);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Zeebe Zapiekanka' };
      const key = 'zeebe-job-2251799813685249';
      const send = (n: number) => createWith(t, n % 2 ? workerB : workerA, body, key);
      replayed('job', await loop(sleeper(t), send, (n) => 1_000 * 2 ** n + Math.floor(random() * 200), 3));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": an Argo Workflows step with retryStrategy
  // { limit: 3, retryPolicy: OnError, backoff: { duration: 5s, factor: 2 } }; every attempt is a new pod
  // (about 6 s to start, its own token) keyed by {{workflow.uid}}-create.
  {
    does: 'is an Argo Workflows step (retryStrategy limit 3, backoff 5 s factor 2), each attempt a new pod with its own token, keyed by the workflow uid',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const random = seeded(1416);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Argo Arepas' };
      const key = `argo-${uuid(random)}-create`;
      const podStart = () => 6_000 + Math.floor(random() * 1_500);
      const send = () => createWith(t, auth(t), body, key);
      replayed('step', await loop(sleeper(t), send, (n) => 5_000 * 2 ** n + podStart(), 3));
    },
  },
  // "Modifying calls are repeat-safe": a Postman collection run by Newman in CI (--delay-request 200):
  // a key from POST /idempotency-keys stored in a collection variable, the create retried once with it
  // after a gateway 503 via setNextRequest('create') and setTimeout(1000).
  {
    does: 'is a Newman collection run in CI that stores a key from POST /idempotency-keys and, after a 503, runs the create again with it via setNextRequest',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const issued = await api(t, a, 'POST', '/idempotency-keys', { body: { operation: 'connection.create' } });
      const key = String(ok('key', issued).json?.data?.idempotencyKey);
      await sleep(200);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Newman Noodle Bar' };
      const first = await createWith(t, a, body, key);
      if (first.status !== 503) throw new Error(`answered ${first.status}`);
      await sleep(1_000 + 200);
      replayed('create', await createWith(t, a, body, key));
      await sleep(200);
      ok('list', await get(t, a, '/connections'));
    },
  },
  // "respect the wait time of the response": a mobile BFF with per-user budgets (its own 429s to the
  // app, no call) that pauses every user's calls after the service's 429 until Retry-After has passed.
  {
    does: 'is a mobile BFF with per-user rate budgets that holds every user’s GET /connectors until a 429’s Retry-After (2 s) has passed',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1418);
      const sleep = sleeper(t);
      const budget = new Map<string, number>();
      let pausedUntil = 0;
      for (let i = 0; i < 16; i++) {
        const user = `user-${i % 4}`;
        budget.set(user, (budget.get(user) ?? 0) + 1);
        if ((budget.get(user) ?? 0) > 3) continue; // the BFF answers this user 429 itself
        if (i === 5) fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
        if (now(t) < pausedUntil) await sleep(pausedUntil - now(t));
        const r = await get(t, a, '/connectors');
        if (r.status === 429) pausedUntil = now(t) + r.retryAfterMs + Math.floor(random() * 250);
        await sleep(150);
      }
    },
  },
  // "respect the wait time of the response": a Fivetran Connector SDK sync every 6 hours, each sync a
  // new process with a token of its own; the second sync meets a 429 with Retry-After: 5.
  {
    does: 'is a Fivetran Connector SDK sync every 6 hours (a new token per sync) that waits out a 429’s Retry-After: 5 in the second sync',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const sleep = sleeper(t);
      const random = seeded(1419);
      for (let sync = 0; sync < 3; sync++) {
        const a = auth(t, undefined, 3_600);
        if (sync === 1) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 5, count: 1 });
        const wait = (_: number, r: { retryAfterMs: number }) => r.retryAfterMs + Math.floor(random() * 500);
        ok('connections', await loop(sleep, () => get(t, a, '/connections'), wait, 3));
        await sleep(300);
        ok('connectors', await get(t, a, '/connectors'));
        await sleep(6 * 3_600_000);
      }
    },
  },
  // "respect the wait time of the response ... Lasting high load is to be agreed beforehand": the AWS SDK
  // for JavaScript v3 in retry mode adaptive: the retry waits the larger of Retry-After and its draw, and
  // its client-side rate limiter slows every other call to one a second after the throttle.
  {
    does: 'is an AWS-SDK-style client in adaptive retry mode: a 429 (Retry-After: 2) waited out, and its client-side rate limiter slowing the other reads to one a second',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1420);
      const sleep = sleeper(t);
      let limiter = tokenBucket(() => now(t), 5);
      // Sixteen different reads (their queries differ), one of them throttled.
      const paths = [
        '/providers?category=',
        '/connectors?capability=',
        '/connectors?providerId=',
        '/connectors?category=',
      ];
      for (let i = 0; i < 16; i++) {
        if (i === 5) fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
        await limiter.take(sleep);
        const path = `${paths[i % 4]}x${i}`;
        const r = await get(t, a, path);
        if (r.status === 429) {
          limiter = tokenBucket(() => now(t), 1);
          limiter.pauseUntil(now(t) + Math.max(r.retryAfterMs, Math.floor(random() * 500)));
          await limiter.take(sleep);
          ok('retry', await get(t, a, path));
        }
      }
    },
  },
  // "respect the wait time of the response": a Perl script on LWP::UserAgent reading Retry-After and
  // calling sleep($retry_after + 1) (whole seconds) before its one retry.
  {
    does: 'is a Perl LWP::UserAgent script that sleeps Retry-After + 1 whole seconds after a 429 (Retry-After: 2)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          (_, r) => r.retryAfterMs + 1_000,
          1,
        ),
      );
    },
  },
];
