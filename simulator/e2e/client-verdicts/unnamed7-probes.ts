import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient2 } from './unnamed2-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { fixturesWithClientForAllTenants, retried, transient } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { celeryCountdownMs } from './unnamed7-kit.ts';

/**
 * Round 7, edges of the rules met while writing the round: a well-behaved client whose jitter draws
 * whole seconds from a small range, a browser page on the public routes beside a server client, and a
 * key issued for one operation used for another.
 */
export const PROBES_WELL_BEHAVED_7: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread.": Celery's full jitter draws whole
  // seconds (randrange(2^n + 1)), so the first retry of each operation waits 0, 1 or 2 s: equal draws
  // across operations are frequent, and a 0 s draw retries at once.
  {
    does: 'is a Celery worker (retry_backoff, retry_jitter: whole seconds from randrange(2^n + 1)) reading eight reports, each through two 500s',
    pass: ['retry.only-after-failure', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(761);
      for (let report = 0; report < 8; report++) {
        const [route, path] = READS[report % READS.length] ?? READS[0];
        const q = path;
        fault(t, { kind: 'internal', route, count: 2 });
        const r = await retried(
          sleep,
          () => api(t, a, 'GET', q),
          (n, x) => (transient(x) ? celeryCountdownMs(n, random) : undefined),
        );
        if (r.status !== 200) throw new Error(`${q} answered ${r.status}`);
        await sleep(30_000);
      }
    },
  },
  // "Public endpoints (no authentication): GET /api/public/v1, …, GET /api/public/v1/stream": a status
  // page in a browser reads the self-description with a preflight announcing only Service-Version
  // (no credentials), while the partner's backend calls with its token from the server.
  {
    does: 'is a browser status page reading the public self-description (a CORS preflight announcing only service-version, no credentials) beside the partner’s backend calling with its token',
    pass: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const origin = 'https://status.partner.example';
      await t.fetch(`${t.baseUrl}/api/public/v1`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'service-version',
        },
      });
      await t.fetch(`${t.baseUrl}/api/public/v1`, { headers: { origin, 'service-version': '2026-07-01' } });
      await api(t, a, 'GET', '/connections');
    },
  },
  // "Service accounts | lasting automation of one tenant | one account per tenant and purpose": a
  // nightly batch over three tenants takes a tenant-scoped token when each tenant's turn comes and
  // calls every 2 s with it; each tenant's token is its first and only one.
  {
    does: 'is a nightly batch over three tenants that takes a tenant-scoped token when each tenant’s turn comes and calls every 2 s with it',
    pass: ['auth.token-reused'],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const sleep = sleeper(t);
      for (const tenant of ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes']) {
        const a = { ...auth(t, 'network-integrator', 900), tenant };
        for (const [, path] of READS) {
          const r = await api(t, a, 'GET', path);
          if (r.status !== 200) throw new Error(`${tenant} ${path} answered ${r.status}`);
          await sleep(2_000);
        }
      }
    },
  },
];

export const PROBES_MISBEHAVING_7: FaultyClient2[] = [
  // "use a new key for each new operation" (idempotency_conflict's remedy) and "operation (… short
  // name of the operation, e.g. connection.create)": a key issued for connection.create is spent on
  // the connection, then used again for a webhook registration, another operation.
  {
    does: 'spends a key issued by POST /idempotency-keys for connection.create on a connection, then uses the same key for a webhook registration',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const issued = await api(t, a, 'POST', '/idempotency-keys', { body: { operation: 'connection.create' } });
      const key = String(issued.json?.data?.idempotencyKey ?? `fallback-${uuid(seeded(762))}`);
      await api(t, a, 'POST', '/connections', { body: { ...CONNECTION, scopeLabel: 'One Key Inn' }, key });
      await sleeper(t)(3_000);
      await api(t, a, 'POST', '/webhooks', {
        body: { url: 'http://127.0.0.1:9/hooks/one-key', events: ['order.created'] },
        key,
      });
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a bulk importer creating 80 venues
  // one after another (500 ms apart, a key each); the fifth create answers 500 and is put back at the
  // end of the queue, where a fresh key is minted for it: its retry comes 75 creates later.
  {
    does: 'is a bulk importer creating 80 venues 500 ms apart under a key each; the fifth answers 500 and is re-queued at the end under a newly minted key, its retry 75 creates later',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(763);
      const queue = Array.from({ length: 80 }, (_, i) => ({ ...CONNECTION, scopeLabel: `Bulk Venue ${i}` }));
      for (let i = 0; i < queue.length; i++) {
        const body = queue[i];
        if (!body) break;
        if (i === 4) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        const key = `bulk-${uuid(random)}`;
        let r = await api(t, a, 'POST', '/connections', { body, key });
        while (r.status === 429) {
          await sleep(r.retryAfterMs + Math.floor(random() * 200));
          r = await api(t, a, 'POST', '/connections', { body, key });
        }
        if (r.status >= 500) queue.push(body);
        await sleep(500);
      }
    },
  },
  // "respect the wait time of the response": a client that retries one 429 after 200 ms (Retry-After:
  // 2), then runs a soak test of 250 well-spaced reads before the report is asked for.
  {
    does: 'retries a 429 (Retry-After: 2) after 200 ms, then runs a soak test of 250 reads a second apart before the report is asked for',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(764);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 2, count: 1 });
      await api(t, a, 'GET', '/connections');
      await sleep(200);
      await api(t, a, 'GET', '/connections');
      for (let n = 0; n < 250; n++) {
        await sleep(1_000);
        const [, path] = READS[n % READS.length] ?? READS[0];
        const r = await api(t, a, 'GET', path);
        if (r.status === 429) await sleep(r.retryAfterMs + Math.floor(random() * 200));
      }
    },
  },
  // The same sentence, with a long Retry-After: a 429 asking for 180 s (a rate-limit window of three
  // minutes) is retried after a fixed 130 s, 50 s too early.
  {
    does: 'retries a read 130 s after a 429 that said Retry-After: 180 (a three-minute rate-limit window), with its own fixed pause',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 180, count: 1 });
      await api(t, a, 'GET', '/connections');
      await sleeper(t)(130_000);
      await api(t, a, 'GET', '/connections');
    },
  },
];
