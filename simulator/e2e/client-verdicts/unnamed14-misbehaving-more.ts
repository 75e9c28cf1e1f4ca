import { held, sleepOn, untilHeld } from '../harness.ts';
import { type Auth, api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { cachedTokenReads } from './unnamed14-kit.ts';

/**
 * Round 14, more misbehaving clients: workflow engines, collections and caches that break a duty.
 */
export const MISBEHAVING_MORE_14: FaultyClient[] = [
  // "use a new key for each new operation" / "the same key with the same content": a Newman collection
  // whose Idempotency-Key header is {{$guid}} (a new value per request), so setNextRequest('create')
  // after a 500 sends the create again under a new key.
  {
    does: 'is a Newman collection whose Idempotency-Key is {{$guid}}, so its setNextRequest retry after a 500 carries a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1461);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Guid Grillhouse' };
      const first = await createWith(t, a, body, uuid(random));
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_200);
      ok('create', await createWith(t, a, body, uuid(random)));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": .NET AddStandardHedgingHandler put on a
  // POST, with a DelegatingHandler inside it that stamps a new Guid key on every attempt: the hedge sent
  // after 2 s is the same create under a new key; the slower one is cancelled.
  {
    does: 'is a .NET client with AddStandardHedgingHandler on POST /connections and a per-attempt Guid key: the hedge after 2 s carries a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1462);
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 10_000, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Hedged Hofbräu' };
      const ctrl = new AbortController();
      const before = held(t);
      const slow = t
        .fetch(`${t.baseUrl}/api/public/v1/connections`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${a.token}`,
            'x-service-tenant': a.tenant,
            'service-version': '2026-07-01',
            'content-type': 'application/json',
            'idempotency-key': uuid(random),
          },
          body: JSON.stringify(body),
          signal: ctrl.signal,
        })
        .catch(() => undefined);
      await untilHeld(t, before);
      await sleepOn(t, 2_000);
      ok('hedge', await createWith(t, a, body, uuid(random)));
      ctrl.abort();
      await slow;
      // The server notices the abandoned copy (its connection closes) before the report is asked.
      await sleepOn(t, 100);
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a proactive refresh configured the wrong way
  // round (refresh once 10 % of the lifetime has passed, not 90 %): a 600 s token replaced every 60 s.
  {
    does: 'refreshes its 600 s token once 10 % of its lifetime has passed (every 60 s, 540 s left), reading every 15 s for 8 minutes',
    fails: ['auth.token-reused'],
    async run(t) {
      await cachedTokenReads(t, {
        ttlS: 600,
        everyMs: 15_000,
        minutes: 8,
        due: (issued, expires, at) => at - issued >= 0.1 * (expires - issued),
      });
    },
  },
  // "token expired ... remedy: request a new access token": a Durable Object token cache that stores
  // expires_in (seconds) as milliseconds of storage TTL mis-scaled by 1000, so it keeps serving a
  // 120 s token after expiry; every isolate's read (each its own query) is answered 401 for a minute.
  {
    does: 'is a Cloudflare Worker whose Durable Object cache mis-scales expires_in and serves an expired 120 s token for a minute of different reads (all 401)',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const a: Auth = auth(t, undefined, 120);
      const sleep = sleeper(t);
      for (let i = 0; i < 20; i++) {
        const r = await get(t, a, `/connectors?capability=cap-${i}`);
        if (i < 12 && r.status !== 200) throw new Error(`read ${i} answered ${r.status}`);
        if (i >= 13 && r.status !== 401) throw new Error(`read ${i} answered ${r.status}`);
        await sleep(10_000);
      }
    },
  },
  // "A sample client makes up to 4 attempts": an Argo Workflows step with retryStrategy limit: 5 (six
  // attempts, each a new pod with its own token) through five 500s.
  {
    does: 'is an Argo Workflows step with retryStrategy limit 5 (six pods, own tokens, backoff 5 s factor 2) creating through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const random = seeded(1465);
      fault(t, { kind: 'internal', route: 'createConnection', count: 5 });
      const body = { ...CONNECTION, scopeLabel: 'Argo Limit Larder' };
      const key = `argo-${uuid(random)}-create`;
      const wait = (n: number) => Math.min(5_000 * 2 ** n, 60_000) + 6_000 + Math.floor(random() * 1_500);
      ok('step', await loop(sleeper(t), () => createWith(t, auth(t), body, key), wait, 5));
    },
  },
  // "Clients retry with growing intervals": a Zeebe worker that fails the job with retryBackOff 0, so the
  // next activation (its 100 ms poll) sends the create again at once, every time.
  {
    does: 'is a Zeebe job worker failing the job with retryBackOff 0, so its 100 ms poll re-activates the create at once, twice',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Zeebe Zero Backoff' };
      ok(
        'job',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'zeebe-job-4503599627370497'),
          () => 100,
          3,
        ),
      );
    },
  },
  // "respect the wait time of the response": a mobile BFF that only holds back the user whose call got
  // the 429; the next users' identical GET /connectors go out at once, inside the Retry-After.
  {
    does: 'is a mobile BFF that holds back only the user who got a 429 (Retry-After: 3), sending the next users’ identical reads at once',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      const refused = await get(t, a, '/connectors');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      for (let user = 1; user < 4; user++) {
        await sleep(200);
        ok(`user ${user}`, await get(t, a, '/connectors'));
      }
    },
  },
  // "Clients retry with growing intervals": clj-http's :retry-handler (fn [ex n ctx] (< n 4)) retries an
  // IOException at once, with no wait: three dropped reads, three immediate retries.
  {
    does: 'is a Clojure clj-http client whose :retry-handler retries dropped connections at once, three times in a row',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'listProviders', failWith: 'drop', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => api(t, a, 'GET', '/providers'),
          () => 0,
          3,
        ),
      );
    },
  },
];
