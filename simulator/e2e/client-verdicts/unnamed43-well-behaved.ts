import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import { pollyDecorrelatedJitterV2, seeded } from './unnamed4-kit.ts';
import { guidanceWait } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import {
  canonical,
  hashKey,
  krakendExponentialJitter,
  mintedKey,
  renewalMeets429,
  reordered,
  siblingTakeover,
  temporalDefault,
  tenantStreams,
} from './unnamed43-kit.ts';

/**
 * Round 43, well-behaved clients where duties meet: a 429 right after a token renewal, keys derived from
 * the canonical content (by one process or a sibling taking over), a key minted once per operation, per-tenant
 * token caches renewing near expiry, per-tenant stream checkpoints, Temporal with MaximumAttempts 4. Each must get no `fail`; the interface
 * sentence that makes it legal is quoted.
 */
export const WELL_BEHAVED_43: UnnamedClient2[] = [
  // "respect the wait time of the response": the renewed token's first read is refused 429 and waited out.
  {
    does: 'is a RestSharp client whose OAuth2 authenticator renews an expired token after a 401, then waits out the 429 (Retry-After 2 s) the renewed read meets, plus 180 ms',
    pass: ['retry.respects-retry-after', 'auth.renewed-after-expiry'],
    run: (t) => renewalMeets429(t, (ms) => ms + 180),
  },
  // "the same key with the same content returns the same response again": a sibling derives the same key.
  {
    does: 'is a pod pair sharing a job table, keys the sha256 of the canonical body: pod A dies on a committed 500, pod B re-sends the create 3 s later under the same derived key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const key = hashKey('conn', canonical({ ...CONNECTION, scopeLabel: 'Shared Table Grill' }));
      replayed(
        'takeover',
        await siblingTakeover(t, { keyA: key, keyB: key, label: 'Shared Table Grill', afterMs: 3_000 }),
      );
    },
  },
  {
    does: 'derives its key from the canonical body (sorted keys), so its retry after a committed 500, rebuilt in another field order, carries the same key',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Canonical Cantina' };
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal' });
      const first = await createWith(t, a, body, hashKey('conn', canonical(body)));
      await sleeper(t)(640);
      const again = reordered(body);
      replayed('retry', await createWith(t, a, again, hashKey('conn', canonical(again))));
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
    },
  },
  // Keys from POST /idempotency-keys: one per operation, outside the retry loop.
  {
    does: 'mints one key per operation with POST /idempotency-keys and retries its create through a 500 and a 429 (Retry-After 2 s) under it',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Minted Mezze' };
      const key = await mintedKey(t, a);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      const wait = guidanceWait(seeded(4304));
      ok('create', await retrying(sleeper(t), () => createWith(t, a, body, key), wait));
    },
  },
  // "Tokens are short-lived and are renewed": three caches, each renewing with 4 of 15 minutes left.
  {
    does: 'is an integrator with a token cache per tenant (15-minute tokens renewed with 4 minutes left), reading three tenants in turn every 20 s for 25 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      const sleep = sleeper(t);
      const cache = new Map<string, { auth: ReturnType<typeof as>; at: number }>();
      for (let i = 0, now = 0; i < 75; i++, now += 20) {
        const tenant = TENANTS[i % 3] ?? TENANTS[0];
        const held = cache.get(tenant);
        if (!held || now - held.at >= 660) cache.set(tenant, { auth: as(t, tenant, 900), at: now });
        ok(tenant, await get(t, cache.get(tenant)?.auth ?? as(t, tenant, 900), '/connectors'));
        await sleep(20_000);
      }
    },
  },
  // "Clients retry with growing intervals and slight random spread": the standard handler's defaults.
  {
    does: 'uses Microsoft.Extensions.Http.Resilience AddStandardResilienceHandler defaults (3 retries, exponential from 2 s with jitter, Retry-After honoured), three reads through two 500s and one through a 429',
    pass: ['retry.growing-waits', 'retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(4306);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 2 });
        const delay = pollyDecorrelatedJitterV2(2_000, random);
        ok(
          path,
          await loop(
            sleep,
            () => get(t, a, path),
            (n) => delay(n + 1),
            3,
          ),
        );
        await sleep(8_000);
      }
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 3, count: 1 });
      const delay = pollyDecorrelatedJitterV2(2_000, random);
      ok(
        'list',
        await loop(
          sleep,
          () => get(t, a, '/connections'),
          (n, r) => r.retryAfterMs || delay(n + 1),
          3,
        ),
      );
    },
  },
  {
    does: 'is a KrakenD backend with max_retries 2 and backoff_strategy exponential-jitter, three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = krakendExponentialJitter(seeded(4307));
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleep, () => get(t, a, path), wait, 2));
        await sleep(6_000);
      }
    },
  },
  // The control of the URL-seeded jitter: the guidance's draw per attempt, one generator per process.
  {
    does: 'draws the guidance jitter per attempt from one generator per process, four reads of /connectors each through two 500s',
    pass: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = guidanceWait(seeded(4308));
      for (let i = 0; i < 4; i++) {
        fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
        ok('read', await loop(sleep, () => get(t, a, '/connectors'), wait, 3));
        await sleep(10_000);
      }
    },
  },
  // "resumes without gaps ... (last number read)": one checkpoint per tenant.
  {
    does: 'is an integrator reading two tenants’ streams with one token, keeping a checkpoint per tenant, resuming each after its cut from its own last number',
    pass: ['stream.resume-from-last-read'],
    options: ALL_TENANTS,
    run: (t) => tenantStreams(t, { shared: false }),
  },
  {
    does: 'imports 30 rows one every 2 s, each its own key, waiting out a 429 (Retry-After 3 s) on the tenth and retrying it under its key',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (let i = 0; i < 30; i++) {
        if (i === 9) fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
        const body = { ...CONNECTION, scopeLabel: `Import Row ${i + 1}` };
        const key = `import-4310-row-${i + 1}`;
        ok(
          `row ${i + 1}`,
          await retrying(
            sleep,
            () => createWith(t, a, body, key),
            () => 200,
          ),
        );
        await sleep(2_000);
      }
    },
  },
  // "Sample calls send a header Service-Version": a read after a create, same token, one version.
  {
    does: 'reads the connection it created back with GET /connections at once and once more 30 s later (a read after a success, no failure)',
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('create', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Read Back Bar' }, 'readback-4311'));
      ok('list', await api(t, a, 'GET', '/connections'));
      await sleeper(t)(30_000);
      ok('list again', await api(t, a, 'GET', '/connections'));
    },
  },
  // "A sample client makes up to 4 attempts and doubles the wait": Temporal with MaximumAttempts 4.
  {
    does: 'is a Temporal activity with InitialInterval 1 s, BackoffCoefficient 2 and MaximumAttempts 4, keyed by workflow and activity id, creating through three 500s',
    pass: ['retry.same-key-and-content', 'retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Durable Deli' };
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const key = 'wf-onboard-4312:activity-5';
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), temporalDefault, 3));
    },
  },
];
