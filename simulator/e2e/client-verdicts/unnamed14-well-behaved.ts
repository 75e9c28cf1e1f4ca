import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { now } from './unnamed10-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import {
  cachedTokenReads,
  getRaw,
  ktorHttpRequestRetry,
  resty,
  retryAfterRfc9110,
  staminaOnHook,
} from './unnamed14-kit.ts';

/**
 * Round 14, well-behaved clients (schedules, keys, Retry-After, tokens). Each must get no `fail`; the
 * interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_14: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread": Go resty with SetRetryCount(3),
  // SetRetryWaitTime(500ms), SetRetryMaxWaitTime(5s) and its default (equal-jitter) backoff.
  {
    does: 'is a Go service on resty (SetRetryCount 3, wait 500 ms to 5 s, default equal-jitter backoff) reading three paths each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: resty(seeded(1401)), failures: 2, max: 3 });
    },
  },
  // "the same key with the same content returns the same response again": Ktor HttpRequestRetry
  // { retryOnServerErrors(3); exponentialDelay(); modifyRequest { headers["X-Retry-Count"] = retryCount } }:
  // the key is set once on the request builder, the retry only adds a header.
  {
    does: 'is a Ktor client (HttpRequestRetry, exponentialDelay, modifyRequest adding X-Retry-Count) retrying a create through a committed 500 and a 500 under its key',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Ktor Kebab House' };
      const key = `ktor-${uuid(seeded(1402))}`;
      const send = (n: number) => createWith(t, a, body, key, n > 0 ? { 'x-retry-count': String(n) } : {});
      replayed('create', await loop(sleeper(t), send, ktorHttpRequestRetry(seeded(1412)), 3));
    },
  },
  // "respect the wait time of the response": httpx with @stamina.retry(on=hook, attempts=4) whose hook
  // returns Retry-After (a float) for a 429, so stamina waits that, and its own backoff after a 500.
  {
    does: 'is an httpx client under stamina whose on= hook returns Retry-After for 429s (Retry-After: 2, then a 500 on its own backoff)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), staminaOnHook(seeded(1403)), 3));
    },
  },
  // "Retry-After (recommended wait in seconds)": a client reading the header as RFC 9110 allows
  // (delay-seconds first, an HTTP date otherwise), through a 429 with Retry-After: 3, plus 100 ms margin.
  {
    does: 'reads Retry-After as delay-seconds or an HTTP date (RFC 9110), waiting 3 s plus a margin after a 429',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      let r = await getRaw(t, a, '/providers');
      if (r.status !== 429) throw new Error(`answered ${r.status}`);
      await sleeper(t)((retryAfterRfc9110(r.retryAfter, now(t)) ?? 1_000) + 100);
      r = await getRaw(t, a, '/providers');
      ok('read', r);
    },
  },
  // "respect the wait time of the response": a GitHub Actions step `curl --retry 3 --retry-max-time 60`
  // (curl honours Retry-After for a 429, else waits 1 s doubling) around a capability check.
  {
    does: 'is a GitHub Actions step running curl --retry 3 on a capability check: Retry-After: 2 waited out, then 1 s after a 500',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'checkCapability', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'checkCapability', count: 1 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
      const curl = (n: number, r: { retryAfterMs: number }) => (r.retryAfterMs > 0 ? r.retryAfterMs : 1_000 * 2 ** n);
      ok('check', await loop(sleeper(t), () => api(t, a, 'POST', '/capabilities', { body }), curl, 3));
    },
  },
  // "Clients retry ... Lasting high load is to be agreed beforehand": a k6 script (one VU, sleep(1) per
  // iteration) reading /connections; on a 429 it sleeps Retry-After before its next iteration.
  {
    does: 'is a k6 script (one VU, sleep(1) per iteration) reading /connections 20 times; a 429 makes it sleep Retry-After (2 s) first',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (let i = 0; i < 20; i++) {
        if (i === 8) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 2, count: 1 });
        const r = await get(t, a, '/connections');
        await sleep(r.status === 429 ? r.retryAfterMs + 50 : 1_000);
      }
    },
  },
  // "Creates ... each under a key of its own": a k6 script creating one connection a second (the same
  // body every iteration, `uuidv4()` as the key); iteration 6 is answered 500 and the script goes on.
  {
    does: 'is a k6 load script creating the same connection once a second under a fresh uuidv4() key each iteration; one 500 does not stop it',
    pass: [],
    async run(t) {
      const a = auth(t);
      const random = seeded(1407);
      const body = { ...CONNECTION, scopeLabel: 'k6 Load Lounge' };
      for (let i = 0; i < 12; i++) {
        if (i === 6) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        await createWith(t, a, body, uuid(random));
        await sleeper(t)(1_000);
      }
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a token cache renewing at 80 % of the
  // lifetime (600 s tokens renewed once 480 s have passed), reading every 20 s for 26 minutes.
  {
    does: 'renews its 600 s token proactively at 80 % of its lifetime (120 s left), reading every 20 s for 26 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      await cachedTokenReads(t, {
        ttlS: 600,
        everyMs: 20_000,
        minutes: 26,
        due: (issued, expires, at) => at - issued >= 0.8 * (expires - issued),
      });
    },
  },
  // "store it server-side ... renewed, not extended": a Cloudflare Worker whose isolates share one token
  // through a Durable Object, which renews it when less than 60 s are left; three isolates read in turn.
  {
    does: 'is a Cloudflare Worker whose isolates share one 300 s token through a Durable Object renewing it under 60 s left, three isolates reading every 5 s for 12 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      await cachedTokenReads(t, {
        ttlS: 300,
        everyMs: 5_000,
        minutes: 12,
        due: (_, expires, at) => expires - at < 60_000,
      });
    },
  },
  // "the same key with the same content": a Swift Hummingbird service (AsyncHTTPClient) that makes its
  // key with UUID() before its retry loop; the first create's connection is dropped after the commit.
  {
    does: 'is a Swift Hummingbird service (AsyncHTTPClient) whose key is made before its retry loop, retrying a create dropped after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1410);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const key = uuid(random).toUpperCase();
      const body = { ...CONNECTION, scopeLabel: 'Hummingbird Hut' };
      const wait = (n: number) => 500 * 2 ** n + Math.floor(random() * 250);
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), wait, 3));
    },
  },
];
