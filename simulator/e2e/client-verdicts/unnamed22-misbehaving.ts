import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { feignDefault, smithyStandard, stainlessRetry } from './unnamed22-kit.ts';

/** Round 22, misbehaving clients (retry schedules and keys): each must fail exactly the rules it breaks. */
export const MISBEHAVING_22: FaultyClient[] = [
  // "retry only after rate_limited and internal": a Stainless-generated SDK retries 408, 409, 429 and 5xx
  // by default; a create refused 409 capability_denied is sent twice more under its request's key.
  {
    does: 'is a Stainless-generated SDK whose default retry covers 409, re-sending a create refused 409 capability_denied twice under its key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, capabilities: ['orders.read', 'no.such.capability'] };
      const key = 'stainless-node-retry-0d9b6a41-2c7e-4f38-a5e1-7b3c90f2d6a8';
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, key),
        stainlessRetry(seeded(2251)),
        2,
        (x) => x.status === 409 || x.status === 429 || x.status >= 500,
      );
      if (r.json?.error?.code !== 'capability_denied') throw new Error(`answered ${r.json?.error?.code}`);
    },
  },
  // "A sample client makes up to 4 attempts": the same SDK with `maxRetries: 5` set on the client: six
  // attempts of one read through five 500s (its waits grow: 0.5, 1, 2, 4, 8 s less up to a quarter).
  {
    does: 'is a Stainless-generated SDK configured with maxRetries 5, reading through five 500s (six attempts)',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 5 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), stainlessRetry(seeded(2252)), 5));
    },
  },
  // "respect the wait time of the response", "up to 4 attempts", "growing intervals": OpenFeign's
  // `Retryer.Default()` (100 ms, maxPeriod 1 s, maxAttempts 5) caps a Retry-After of 3 s at 1 s: five
  // attempts a second apart through four 429s.
  {
    does: 'is an OpenFeign client on Retryer.Default() capping a 429’s Retry-After of 3 s at maxPeriod 1 s, five attempts through four 429s',
    fails: ['retry.attempt-limit', 'retry.growing-waits', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 4 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), feignDefault, 4));
    },
  },
  // "A sample client makes up to 4 attempts": a Smithy-generated client with `maxAttempts: 8` (the AWS SDK's
  // "standard" mode raised for a flaky partner API), one read through five 500s: six attempts.
  {
    does: 'is a Smithy-generated TypeScript client with maxAttempts 8, one read through five 500s (six attempts, full jitter on 100 ms)',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 5 });
      const draw = seeded(2254);
      const wait = (n: number) => Math.max(60, smithyStandard(draw)(n + 2));
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), wait, 7));
    },
  },
  // "Clients retry with growing intervals": the `nick-fields/retry@v3` GitHub Action around a curl step
  // (max_attempts 3, retry_wait_seconds 10): the same 10 s between attempts, through two 500s.
  {
    does: 'is a GitHub Actions step under nick-fields/retry@v3 (max_attempts 3, retry_wait_seconds 10) reading through two 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          () => 10_000,
          2,
        ),
      );
    },
  },
  // "up to 4 attempts" and "growing intervals": a Huey task `@huey.task(retries=5, retry_delay=10)`: six
  // attempts 10 s apart through five 500s.
  {
    does: 'is a Huey task (retries=5, retry_delay=10) reading the providers six times 10 s apart through five 500s',
    fails: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 5 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers?category=pos'),
          () => 10_000,
          5,
        ),
      );
    },
  },
  // "respect the wait time of the response": Scrapy's RetryMiddleware (RETRY_HTTP_CODES include 429,
  // RETRY_TIMES 2) reschedules a refused request at once, never reading Retry-After (3 s).
  {
    does: 'is a Scrapy spider whose RetryMiddleware (RETRY_TIMES 2, 429 in RETRY_HTTP_CODES) re-schedules a 429 (Retry-After 3) at once, twice',
    fails: ['retry.growing-waits', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 3 });
      await loop(
        sleeper(t),
        () => get(t, a, '/connectors?category=payments'),
        () => 0,
        2,
      );
    },
  },
  // "retry only after rate_limited and internal": a Scrapy spider with 404 added to RETRY_HTTP_CODES ("the
  // API is eventually consistent") re-sends a capability check for a connector that does not exist.
  {
    does: 'is a Scrapy spider with 404 added to RETRY_HTTP_CODES, sending a JsonRequest capability check for an unknown connector twice more',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const r = await loop(
        sleeper(t),
        () =>
          api(t, a, 'POST', '/capabilities', { body: { connectorId: 'no-such-connector', capability: 'orders.read' } }),
        () => 200,
        2,
        (x) => x.status === 404,
      );
      if (r.status !== 404) throw new Error(`answered ${r.status}`);
    },
  },
  // "use a new key for each new operation": Go worker on jpillora/backoff keying creates by queue date, so two
  // venues created the same day share "venues-2026-11-27".
  {
    does: 'is a Go worker keying its creates "venues-<date>", so the second venue of the day goes under the first one’s key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      ok('first', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Gopher Gyros' }, 'venues-2026-11-27'));
      await sleeper(t)(45_000);
      const second = await createWith(t, a, { ...CONNECTION, scopeLabel: 'Gopher Gnocchi' }, 'venues-2026-11-27');
      if (second.status !== 409) throw new Error(`answered ${second.status}`);
    },
  },
];
