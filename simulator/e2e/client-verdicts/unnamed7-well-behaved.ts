import { api, auth, CONNECTION, fault, READS, type Reply, type UnnamedClient2 } from './unnamed-kit.ts';
import { forwardProxy, viaProxy } from './unnamed3-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { guidanceWait, retried, transient } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import {
  celeryCountdownMs,
  failsafeGoMs,
  fiboFullJitterMs,
  obanBackoffMs,
  reqJittered,
  teslaRetryMs,
  tokioRetry,
} from './unnamed7-kit.ts';

const ok = (what: string, r: Reply) => {
  if (r.status !== 200) throw new Error(`${what} answered ${r.status}`);
};

/**
 * Round 7, well-behaved: clients of other runtimes' HTTP stacks and job runners (schedules in
 * unnamed7-kit.ts). Each must get no `fail`; the interface sentence that makes it legal is quoted above.
 */
export const STACKS_7: UnnamedClient2[] = [
  // "respect the wait time of the response, retry with growing intervals": Elixir Req (over Finch) with
  // a jittered retry_delay; Req sleeps a 429's or 503's retry-after instead when it is given.
  {
    does: 'is an Elixir Req client (Finch pool) with retry_delay 500 ms·2^n + rand(250) and Req’s own retry-after handling, over four reads through 429s and 500s',
    pass: ['retry.only-after-failure', 'retry.respects-retry-after', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const delay = reqJittered(seeded(701));
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      for (const [route, path] of READS.slice(0, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(
          path,
          await retried(
            sleep,
            () => api(t, a, 'GET', path),
            (n, x) => (transient(x) ? delay(n, x) : undefined),
          ),
        );
        await sleep(3_000);
      }
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a Rust worker using tokio-retry's
  // `ExponentialBackoff::from_millis(2).factor(250).max_delay(8 s).map(jitter).take(3)` around a
  // create whose key is made once, outside the retried closure.
  {
    does: 'is a Rust tokio-retry worker (from_millis(2).factor(250).map(jitter).take(3)) whose create is dropped after commit, then answered 500, and sent again with the key made outside the retried closure',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const delay = tokioRetry({ base: 2, factor: 250, maxMs: 8_000, random: seeded(702) });
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const key = `tokio-${uuid(seeded(703))}`;
      const body = { ...CONNECTION, scopeLabel: 'Ferris Wheel Diner' };
      const r = await retried(
        sleep,
        () => api(t, a, 'POST', '/connections', { body, key }),
        (n, x) => (transient(x) ? delay(n) : undefined),
      );
      ok('the create', r);
      if (r.json?.meta?.replayed !== true) throw new Error('the retry was not replayed');
    },
  },
  // "Clients retry with growing intervals and slight random spread.": Python `@backoff.on_predicate(
  // backoff.fibo, max_tries=4)` with its default full jitter: Fibonacci seconds, each drawn in [0, v].
  {
    does: 'is a Python script under @backoff.on_predicate(backoff.fibo, max_tries=4) with the default full jitter, over three reads through 500s',
    pass: ['retry.only-after-failure', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(704);
      for (const [route, path] of READS.slice(1, 4)) {
        fault(t, { kind: 'internal', route, count: 3 });
        const r = await retried(
          sleep,
          () => api(t, a, 'GET', path),
          (n, x) => (transient(x) ? fiboFullJitterMs(n, random) : undefined),
        );
        ok(path, r);
        await sleep(5_000);
      }
    },
  },
  // "retry only after rate_limited and internal": a Celery task with autoretry_for=(TransientError,)
  // (raised for 429 and 5xx only), retry_backoff, retry_jitter and max_retries=3; the task's key is
  // part of its arguments, so every retry of the task sends it again.
  {
    does: 'is a Celery task (autoretry_for 429/5xx, retry_backoff, retry_jitter, max_retries=3) whose Idempotency-Key is a task argument, creating a connection through two 500s and a 429',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(705);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      const key = `celery-task-${uuid(random)}`;
      const body = { ...CONNECTION, scopeLabel: 'Stalk Market Bistro' };
      // A 429 is raised with countdown=Retry-After (the task reads the header); 5xx take the backoff.
      const r = await retried(
        sleep,
        () => api(t, a, 'POST', '/connections', { body, key }),
        (n, x) => (transient(x) ? Math.max(x.retryAfterMs, celeryCountdownMs(n + 1, random)) : undefined),
      );
      ok('the create', r);
    },
  },
  // "A sample client makes up to 4 attempts": an Elixir Oban worker (max_attempts: 4, the default
  // backoff 15 + 2^attempt s plus up to 10 %); the key is generated at enqueue and kept in the job args.
  {
    does: 'is an Elixir Oban worker (max_attempts: 4, default backoff 15 s + 2^attempt with jitter) whose key lives in the job args, retrying a create through 503s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(706);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 5, count: 3 });
      const args = { key: `oban-job-${uuid(random)}`, body: { ...CONNECTION, scopeLabel: 'Elixir Tavern' } };
      const r = await retried(
        sleep,
        () => api(t, a, 'POST', '/connections', { body: args.body, key: args.key }),
        (n, x) => (transient(x) ? obanBackoffMs(n + 1, random) : undefined),
      );
      ok('the create', r);
    },
  },
  // "doubles the wait … plus a random amount": failsafe-go's RetryPolicy with WithBackoff(500 ms, 8 s),
  // WithJitterFactor(0.25), WithMaxRetries(3), HandleIf(429 or 5xx), over five reads.
  {
    does: 'is a Go failsafe-go RetryPolicy (WithBackoff(500 ms, 8 s), WithJitterFactor(0.25), WithMaxRetries(3)) over five reads through 500s',
    pass: ['retry.only-after-failure', 'retry.growing-waits', 'retry.spread', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(707);
      for (const [route, path] of READS) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(
          path,
          await retried(
            sleep,
            () => api(t, a, 'GET', path),
            (n, x) => (transient(x) ? failsafeGoMs(n, random) : undefined),
          ),
        );
        await sleep(10_000);
      }
    },
  },
  // The same sentences: Elixir Tesla with Middleware.Retry (delay 500, max_delay 5 000, jitter_factor
  // 0.2, max_retries 3) and a should_retry that takes only 429 and 5xx, reads and a capability check.
  {
    does: 'is an Elixir Tesla client with Middleware.Retry (delay 500, jitter_factor 0.2, max_retries 3, should_retry on 429/5xx only), over three reads and a capability check through 500s',
    pass: ['retry.only-after-failure', 'retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(708);
      const calls: [string, () => Promise<Reply>][] = [
        ['listConnectors', () => api(t, a, 'GET', '/connectors')],
        ['listCapabilities', () => api(t, a, 'GET', '/capabilities')],
        ['listProviders', () => api(t, a, 'GET', '/providers')],
        [
          'checkCapability',
          () =>
            api(t, a, 'POST', '/capabilities', {
              body: { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' },
            }),
        ],
      ];
      for (const [route, send] of calls) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(route, await retried(sleep, send, (n, x) => (transient(x) ? teslaRetryMs(n, random) : undefined)));
        await sleep(4_000);
      }
    },
  },
  // "The interface is called from servers only": a backend behind a corporate forward proxy (Via,
  // X-Forwarded-For added, one upstream connection); a 429 waited out and the create sent again with
  // its key, a read retried on the guidance's schedule.
  {
    does: 'is a backend behind a corporate forward proxy (Via and X-Forwarded-For added, one upstream connection) that waits out a create’s 429 and resends it with its key, and retries a read through 500s',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content', 'retry.only-after-failure'],
    async run(t) {
      const proxy = await forwardProxy({ add: { via: '1.1 bluecoat-sg', 'x-proxy-id': 'corp-egress-3' } });
      try {
        const a = auth(t);
        const sleep = sleeper(t);
        const random = seeded(709);
        fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
        const key = `corp-${uuid(random)}`;
        const body = { ...CONNECTION, scopeLabel: 'Proxy Point Canteen' };
        ok(
          'the create',
          await retried(
            sleep,
            () => viaProxy(t, proxy, a, 'POST', '/connections', { body, key }),
            (_n, x) => (x.status === 429 ? x.retryAfterMs + Math.floor(random() * 200) : undefined),
          ),
        );
        await sleep(2_000);
        fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
        const wait = guidanceWait(random);
        ok(
          'the read',
          await retried(
            sleep,
            () => viaProxy(t, proxy, a, 'GET', '/connections'),
            (n, x) => (transient(x) ? wait(n) : undefined),
          ),
        );
      } finally {
        await proxy.close();
      }
    },
  },
  // "The signing key is issued exactly once in the response and must be stored at once" and
  // "Modifying calls are repeat-safe": a Terraform provider's Create of a webhook receiver, the key
  // kept in the resource's private state, waiting out a 429 and resending with the same key.
  {
    does: 'is a Terraform provider creating a webhook receiver whose key is kept in the resource’s private state: a 429 waited out (Retry-After plus a draw) and the create resent with the same key',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(710);
      fault(t, { kind: 'rate_limited', route: 'createWebhook', retryAfterSeconds: 4, count: 1 });
      const key = `tf-webhook-${uuid(random)}`;
      const body = { url: 'http://127.0.0.1:9/hooks/terraform', events: ['order.created', 'order.paid'] };
      ok(
        'the webhook',
        await retried(
          sleep,
          () => api(t, a, 'POST', '/webhooks', { body, key }),
          (_n, x) => (x.status === 429 ? x.retryAfterMs + Math.floor(random() * 1_000) : undefined),
        ),
      );
    },
  },
];
