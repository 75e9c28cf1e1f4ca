import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { now } from './unnamed10-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { awsFullJitter, getRaw, ktorHttpRequestRetry, resty, retryAfterAsDateOnly } from './unnamed14-kit.ts';

/**
 * Round 14, misbehaving clients (Retry-After, schedules, attempts, 4xx): each breaks one duty and must
 * fail exactly that rule (or the rules it breaks), with evidence. The sentence broken is quoted above each.
 */
export const MISBEHAVING_14: FaultyClient[] = [
  // "Retry-After (recommended wait in seconds)": a client that reads the header only as an HTTP date;
  // "3" parses (V8) as 1 March 2001, so the wait comes out 0 and it retries at once.
  {
    does: 'reads Retry-After only as an HTTP date (Date.parse("3") is in 2001), so it retries a 429 with Retry-After: 3 at once',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      const r = await getRaw(t, a, '/providers');
      if (r.status !== 429) throw new Error(`answered ${r.status}`);
      await sleeper(t)(retryAfterAsDateOnly(r.retryAfter, now(t)) ?? 1_000);
      ok('read', await getRaw(t, a, '/providers'));
    },
  },
  // "retry only after rate_limited and internal": a GitHub Actions step `curl --fail --retry 3
  // --retry-all-errors` on a capability check refused 400 (a one-character connectorId).
  {
    does: 'is a GitHub Actions step running curl --retry 3 --retry-all-errors, so a capability check refused 400 is sent three more times',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'x', capability: 'orders.read' };
      const r = await loop(
        sleeper(t),
        () => api(t, a, 'POST', '/capabilities', { body }),
        (n) => 1_000 * 2 ** n,
        3,
        (x) => x.status !== 200,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "respect the wait time of the response": boto3 in retry mode adaptive: botocore's full jitter
  // (random * 2^attempts s) and its client-side rate limiter, but no Retry-After: the first retry of a
  // 429 with Retry-After: 2 is drawn under 1 s.
  {
    does: 'is a boto3-style client in adaptive retry mode (client-side rate limiter, full jitter, Retry-After ignored) retrying a 429 (Retry-After: 2) within 1 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 2, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), awsFullJitter(seeded(1453)), 3));
    },
  },
  // "A sample client makes up to 4 attempts": resty with SetRetryCount(5) reading through five 500s.
  {
    does: 'is a Go service on resty with SetRetryCount(5) reading through five 500s: six attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: resty(seeded(1454)), failures: 5, max: 5, ops: 1 });
    },
  },
  // "retry only after rate_limited and internal": Ktor HttpRequestRetry with retryIf { _, res ->
  // !res.status.isSuccess() }, so a capability check of an unknown connector refused 404 is retried.
  {
    does: 'is a Ktor client with retryIf { !response.status.isSuccess() } retrying a capability check of an unknown connector refused 404',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'no-such-connector', capability: 'orders.read' };
      const r = await loop(
        sleeper(t),
        () => api(t, a, 'POST', '/capabilities', { body }),
        ktorHttpRequestRetry(seeded(1455)),
        3,
        (x) => x.status !== 200,
      );
      if (r.status !== 404) throw new Error(`answered ${r.status}`);
    },
  },
  // "the same key with the same content": an Elixir Finch client whose retry rebuilds the request with
  // Finch.build/4 from the method, URL and body only, so the Idempotency-Key is lost.
  {
    does: 'is an Elixir Finch client whose retry rebuilds the request from method, URL and body, dropping the Idempotency-Key after a 500',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Finch Rebuilt Bistro' };
      const first = await createWith(t, a, body, `finch-${uuid(seeded(1456))}`);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(700);
      const again = await api(t, a, 'POST', '/connections', { body });
      if (again.status !== 428) throw new Error(`keyless retry answered ${again.status}`);
    },
  },
  // "Clients retry with growing intervals and slight random spread": a Swift Hummingbird service whose
  // loop does `try await Task.sleep(for: .seconds(2))` between attempts: 2 s every time, no draw.
  {
    does: 'is a Swift Hummingbird service sleeping a fixed 2 s between attempts, four reads each through two 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: () => 2_000, failures: 2, max: 3, ops: 4 });
    },
  },
  // "respect the wait time of the response, retry with growing intervals": a k6 script retrying a 429
  // in a loop with sleep(0.1), three times, against Retry-After: 1.
  {
    does: 'is a k6 script retrying a 429 (Retry-After: 1) in a loop with sleep(0.1), three times',
    fails: ['retry.respects-retry-after', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 1, count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          () => 100,
          3,
        ),
      );
    },
  },
];
