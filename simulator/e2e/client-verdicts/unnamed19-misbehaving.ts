import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { airbyteExponential, graphileWorker, heimdall } from './unnamed19-kit.ts';

/** Round 19, misbehaving clients: each must fail exactly the rules it breaks, with evidence. */
export const MISBEHAVING_19: FaultyClient[] = [
  // "Clients retry with growing intervals": superagent's .retry(3) re-sends at once, no delay at all.
  {
    does: 'is superagent with .retry(3) re-sending a read at once (no delay) through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 3 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/capabilities'),
          () => 0,
          3,
        ),
      );
    },
  },
  // "Clients retry with growing intervals": cockatiel's ConstantBackoff(1000), three reads each through 3 500s.
  {
    does: 'is a cockatiel retry policy with ConstantBackoff(1000) and maxAttempts 3, three reads each through three 500s',
    // Exactly 1 s every time: neither growing nor spread ("growing intervals and slight random spread").
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: () => 1_000, failures: 3, max: 3 });
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": an rq failure callback enqueues a new job
  // for the failed create, and the key is the job id, so the retry goes out under a new key.
  {
    does: 'is an rq on_failure callback enqueuing a fresh job (new job.id, so a new key) for a create that got a 500 after commit',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1953);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Fresh Job Fondue' };
      await loop(
        sleeper(t),
        () => createWith(t, a, body, `rq:job:${uuid(random)}`),
        () => 10_000,
        3,
      );
    },
  },
  // "retry only after rate_limited and internal": heimdall retries every error the client returns, and
  // this client turns a 404 into an error.
  {
    does: 'is a gojek heimdall client whose error check treats every non-2xx as retryable, retrying a 404 twice',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const r = await loop(
        sleeper(t),
        () => get(t, a, '/connections/conn_missing_0019'),
        heimdall(seeded(1954)),
        2,
        (x) => x.status >= 400,
      );
      if (r.status !== 404) throw new Error(`answered ${r.status}`);
    },
  },
  // "retry only after rate_limited and internal": an Airbyte error handler with action RETRY for
  // http_codes [400], so a refused capability check is sent again unchanged.
  {
    does: 'is an Airbyte low-code error handler with action RETRY on http_codes [400], repeating a refused capability check',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'x', capability: 'orders.read' };
      const r = await loop(
        sleeper(t),
        () => api(t, a, 'POST', '/capabilities', { body }),
        airbyteExponential,
        2,
        (x) => x.status === 400,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "respect the wait time of the response": a Go client doing time.Sleep(time.Duration(retryAfter)),
  // so Retry-After: 3 sleeps 3 ns.
  {
    does: 'is a Go client sleeping time.Duration(n) for Retry-After: 3 (3 ns, not 3 s) before retrying a 429',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          () => 0,
          3,
        ),
      );
    },
  },
  // "respect the wait time of the response": a graphile-worker task rethrowing the 429, so it runs again
  // after exp(1) = 2.7 s though Retry-After said 10.
  {
    does: 'is a graphile-worker task rethrowing a 429 (Retry-After 10), run again by the worker after exp(1) = 2.7 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 10, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), graphileWorker, 3));
    },
  },
  // "A sample client makes up to 4 attempts": an asynq task with MaxRetry(25) and a custom RetryDelayFunc of
  // 2^n s (the default's n^4 delays leave the 120 s retry window: see AMBIGUOUS_19), one read through six 500s.
  {
    does: 'is an asynq task with MaxRetry(25) and a RetryDelayFunc of 2^n s reading connectors through six 500s, seven attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 6 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors?providerId=tillcraft'),
          (n) => 1_000 * 2 ** n,
          25,
        ),
      );
    },
  },
  // "Tokens are short-lived and are renewed, not extended": an Okta SDK whose token cache is disabled
  // (cacheStore: null), so every call fetches a new one-hour token.
  {
    does: 'is an Okta SDK with its token cache disabled, fetching a new 1 h token for each of eight reads a second apart',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let i = 0; i < 8; i++) {
        ok('read', await get(t, auth(t, undefined, 3_600), i % 2 ? '/providers' : '/capabilities'));
        await sleeper(t)(1_000);
      }
    },
  },
  // "request a new access token": Go's oauth2.StaticTokenSource never refreshes, so the expired token goes
  // on with every read of a sync loop (each a different page).
  {
    does: 'is a Go client on oauth2.StaticTokenSource (never refreshed), sending its expired token on six different reads 20 s apart',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const a = auth(t, undefined, 30);
      await sleeper(t)(40_000);
      for (const path of [
        '/providers',
        '/connectors',
        '/capabilities',
        '/connections',
        '/providers?category=pos',
        '/connectors?category=pos',
      ]) {
        await get(t, a, path);
        await sleeper(t)(20_000);
      }
    },
  },
  // "never sent from a browser": a Next.js client component calling the API with a NEXT_PUBLIC_ token.
  {
    does: 'is a Next.js client component fetching the connections with a token from NEXT_PUBLIC_NCS_TOKEN (Origin of the shop)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = {
        origin: 'https://shop.partner.example',
        'sec-fetch-mode': 'cors',
        'sec-fetch-site': 'cross-site',
      };
      await api(t, a, 'GET', '/connections', { headers });
    },
  },
];
