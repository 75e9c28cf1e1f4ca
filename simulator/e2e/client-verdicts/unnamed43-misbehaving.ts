import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { guidanceWait } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import {
  hashKey,
  krakendFallback,
  mintedKey,
  renewalMeets429,
  reordered,
  siblingTakeover,
  temporalDefault,
  tenantStreams,
  urlSeededJitter,
} from './unnamed43-kit.ts';

/**
 * Round 43, misbehaving clients whose violation looks correct: a jitter seeded from the URL (reproducible,
 * so never spread), a key hashed from the raw bytes (another field order, another key), a key minted inside
 * the retry loop, a sibling pod taking over under its own key, the renewal path forgetting a 429's wait,
 * Temporal's default unlimited attempts, a token cache keyed by a scope string in varying order, a 400
 * "fixed" by a charset, one stream checkpoint for two tenants, KrakenD's constant fallback, an importer putting
 * a 429's row back for its next tick.
 */
export const MISBEHAVING_43: (FaultyClient & { options?: SandboxOptions })[] = [
  // "slight random spread": the same URL draws the same jitter every time.
  {
    does: 'is a Deno client seeding its jitter from a hash of the request URL (reproducible retries), four reads of /connectors each through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = urlSeededJitter(`${t.baseUrl}/api/public/v1/connectors`);
      for (let i = 0; i < 4; i++) {
        fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
        ok('read', await loop(sleep, () => get(t, a, '/connectors'), wait, 3));
        await sleep(10_000);
      }
    },
  },
  // "the same key with the same content": the key hashes the bytes, and the retry's bytes differ.
  {
    does: 'derives its key from a sha256 of the JSON bytes it sends, so its retry after a 500, rebuilt in another field order, carries another key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Raw Bytes Bistro' };
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const first = await createWith(t, a, body, hashKey('conn', JSON.stringify(body)));
      await sleeper(t)(700);
      const again = reordered(body);
      ok('retry', await createWith(t, a, again, hashKey('conn', JSON.stringify(again))));
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
    },
  },
  {
    does: 'mints its key with POST /idempotency-keys inside the retry loop (its SDK wraps every attempt), so a create retried after a 500 carries a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Minted Twice Tavern' };
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const wait = guidanceWait(seeded(4403));
      ok('create', await retrying(sleeper(t), async () => createWith(t, a, body, await mintedKey(t, a)), wait));
    },
  },
  // "A sibling process sending a dead pod's failed create again is a retry of it, and must carry its key."
  {
    does: 'is a pod pair sharing a job table whose keys are pod name and counter: pod A dies on a committed 500, pod B re-sends the create 3 s later under its own key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const r = await siblingTakeover(t, {
        keyA: 'pod-a-0001',
        keyB: 'pod-b-0001',
        label: 'Orphan Oyster',
        afterMs: 3_000,
      });
      ok('takeover', r);
    },
  },
  // "respect the wait time of the response": the renewal path restarts the schedule and forgets the 429.
  {
    does: 'is a RestSharp client whose authenticator renews an expired token after a 401 and restarts its Polly schedule, retrying the 429 (Retry-After 2 s) the renewed read meets after 500 ms',
    fails: ['retry.respects-retry-after'],
    run: (t) => renewalMeets429(t, () => 500),
  },
  // "A sample client makes up to 4 attempts": Temporal's default policy has no maximum.
  {
    does: 'is a Temporal activity on the DEFAULT retry policy (1 s doubling, MaximumAttempts 0 = unlimited) reading through five 500s: six attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 5 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), temporalDefault, 5));
    },
  },
  // "Tokens are short-lived and are renewed, not extended": the cache key never matches twice.
  {
    does: 'is an integrator whose token cache is keyed by tenant and a scope string joined from a Set in varying order, so every read of three tenants (every 5 s, 90 s in all) takes a new 10-minute token',
    fails: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      const sleep = sleeper(t);
      const cache = new Map<string, ReturnType<typeof as>>();
      // The six orders a Set of three scopes is joined in; each tenant's reads meet them one after the other.
      const orders = ['a b c', 'a c b', 'b a c', 'b c a', 'c a b', 'c b a'];
      for (let i = 0; i < 18; i++) {
        const tenant = TENANTS[i % 3] ?? TENANTS[0];
        const scope = orders[Math.floor(i / 3) % 6];
        const cacheKey = `${tenant}|${scope}`;
        const held = cache.get(cacheKey) ?? as(t, tenant, 600);
        cache.set(cacheKey, held);
        ok(tenant, await get(t, held, '/connectors'));
        await sleep(5_000);
      }
    },
  },
  // "retry only after rate_limited and internal": a charset is no change of content.
  {
    does: 'answers a create refused 400 (a one-character scopeLabel) by adding charset=utf-8 to its Content-Type and sending the same body under a new key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'X' };
      const first = await createWith(t, a, body, 'charset-4408-a');
      await sleeper(t)(1_500);
      const headers = { 'content-type': 'application/json; charset=utf-8' };
      const second = await api(t, a, 'POST', '/connections', { body, key: 'charset-4408-b', headers });
      if (first.status !== 400 || second.status !== 400) throw new Error(`answered ${first.status}, ${second.status}`);
    },
  },
  // "resumes ... (last number read)": one checkpoint per client stands for two tenants' streams.
  {
    does: 'is an integrator reading two tenants’ streams with one token and one checkpoint per client, resuming the first tenant from the number the second wrote last',
    fails: ['stream.resume-from-last-read'],
    options: ALL_TENANTS,
    run: (t) => tenantStreams(t, { shared: true }),
  },
  // "growing intervals and slight random spread": KrakenD's fallback strategy is a constant second.
  {
    does: 'is a KrakenD backend with max_retries 2 and backoff_strategy fallback (a constant 1 s), three reads each through two 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await loop(sleep, () => get(t, a, path), krakendFallback, 2));
        await sleep(6_000);
      }
    },
  },
  // "respect the wait time of the response": the row goes back on the queue for the importer's next tick.
  {
    does: 'imports rows on a fixed 2 s tick and puts a row refused 429 (Retry-After 5 s) back on the queue, so it is sent again under its key at the next tick',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const queue = Array.from({ length: 6 }, (_, i) => i + 1);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 5, count: 1 });
      for (let row = queue.shift(); row !== undefined; row = queue.shift()) {
        const body = { ...CONNECTION, scopeLabel: `Tick Row ${row}` };
        const r = await createWith(t, a, body, `tick-4411-row-${row}`);
        if (r.status === 429) queue.unshift(row);
        else ok(`row ${row}`, r);
        await sleep(2_000);
      }
    },
  },
];
