import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { auth, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { skewedCache } from './unnamed33-kit.ts';

/**
 * Round 33, misbehaving token holders and stream readers: a token per call at jittered gaps, a per-tenant
 * cache whose early-refresh skew leaves each token a minute, a cache cleared on any 4xx, a cursor kept per
 * backend of a load balancer, a Retry-After slept as milliseconds, a size-1 token LRU across tenants, a
 * renewal judged on a clock 11 minutes fast, a token per call 20 s and 35 s apart in turn, a Last-Event-ID
 * stripped by a balancer, a new token after each 429 waited out. Each must fail exactly its rule(s).
 */
export const MISBEHAVING_33_MORE: (FaultyClient & { options?: SandboxOptions })[] = [
  // "renewed, not extended": a new 15 min token for each call, the calls 12-28 s apart (uniform jitter),
  // so no two spacings are alike and none is under 10 s.
  {
    does: 'fetches a new 15 min token for each read of a long-running poller whose reads are 12-28 s apart (uniform jitter)',
    fails: ['auth.token-reused'],
    async run(t) {
      const draw = seeded(3361);
      for (let call = 0; call < 12; call++) {
        ok('read', await get(t, auth(t, undefined, 900), '/connections'));
        await sleeper(t)(12_000 + Math.round(draw() * 16_000));
      }
    },
  },
  // "renewed, not extended": refreshSkew = 14 * 60 (meant as 1 * 60) on 15 min tokens, cached per tenant:
  // each tenant's token is replaced a minute after it was taken, with 14 minutes left; reads every 10 s.
  {
    does: 'caches a 15 min token per tenant with a refresh skew of 14 minutes (meant 1), reading its three tenants in turn every 10 s for 6 minutes',
    fails: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      const cache = skewedCache(t, (tenant) => as(t, tenant, 900), 900, 840);
      for (let tick = 0; tick < 108; tick++) {
        const tenant = TENANTS[tick % 3] ?? TENANTS[0];
        ok(tenant, await get(t, cache.get(tenant), '/connections'));
        await sleeper(t)(10_000 / 3);
      }
    },
  },
  // "remedy: request a new access token" is for a 401; this error handler clears the token cache on any
  // 4xx, so each lookup of a deleted connection (404) costs the next call a new token.
  {
    does: 'clears its token cache on any 4xx (meant for 401), looking up connections every 5 s of which every other one was deleted (404)',
    fails: ['auth.token-reused'],
    async run(t) {
      const cache = skewedCache(t, () => auth(t, undefined, 900), 900, 60);
      for (let call = 0; call < 12; call++) {
        const path = call % 2 ? `/connections/con_deleted_${call}` : '/connections';
        const r = await get(t, cache.get('harbour-kitchens'), path);
        if (r.status >= 400 && r.status < 500) cache.clear();
        await sleeper(t)(5_000);
      }
    },
  },
  // "(last number read)": the cursor is kept per backend the balancer chose; the reconnect lands on the
  // other backend, for which nothing was read, so it opens with no cursor.
  {
    does: 'keeps its lastEventId per backend of a client-side round-robin balancer: cut on stream-a after two messages, it reconnects to stream-b with no cursor (none read there)',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const last = new Map<string, number>();
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      for (const [i, backend] of ['stream-a.internal', 'stream-b.internal'].entries()) {
        const cursor = last.get(backend);
        const ids = await readStream(t, a, {
          ...(cursor === undefined ? {} : { cursor }),
          idleMs: i ? 400 : 1_500,
          headers: { 'x-forwarded-host': backend },
          ...(i ? {} : { onOpen: () => publish(t, a.tenant, 2) }),
        });
        const seen = ids.at(-1);
        if (seen !== undefined) last.set(backend, seen);
        await sleeper(t)(500);
      }
    },
  },
  // "respect the wait time of the response": Retry-After: 2 passed to a sleep taking milliseconds.
  {
    does: 'passes the 429’s Retry-After (2) straight to a sleep that takes milliseconds, then its own 1 s and 2 s waits through two 500s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'listProviders', count: 2 });
      const draw = seeded(3365);
      const wait = (n: number, r: { status: number; retryAfterMs: number }) =>
        r.status === 429 ? r.retryAfterMs / 1_000 : 1_000 * 2 ** (n - 1) + Math.floor(draw() * 250);
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), wait, 3));
    },
  },
  // "renewed, not extended": an LRU token cache of size 1 keyed by tenant, so each switch of tenant
  // evicts the other's token: three tenants read in turn every 5 s take a new token every call.
  {
    does: 'caches tokens in an LRU of size 1 keyed by tenant, reading its three tenants in turn every 5 s: each switch evicts the token and fetches a new one',
    fails: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      let slot: { tenant: string; token: string } | undefined;
      for (let tick = 0; tick < 15; tick++) {
        const tenant = TENANTS[tick % 3] ?? TENANTS[0];
        if (slot?.tenant !== tenant) slot = { tenant, token: as(t, tenant, 900).token };
        ok(tenant, await get(t, { token: slot.token, tenant }, '/connections'));
        await sleeper(t)(5_000);
      }
    },
  },
  // "renewed, not extended": it renews 5 minutes before expires_at, but judges that on a clock 11
  // minutes fast (a VM whose NTP is off), so every 15 min token looks due at once: a new one per call.
  {
    does: 'renews its 15 min token when expires_at - now < 5 minutes, reading now from a clock 11 minutes fast, so each read every 20 s takes a new token',
    fails: ['auth.token-reused'],
    async run(t) {
      const skewMs = 660_000;
      let held: { a: ReturnType<typeof auth>; expiresAt: number } | undefined;
      for (let tick = 0; tick < 12; tick++) {
        const now = t.sandbox.state.clock.now() + skewMs;
        if (!held || held.expiresAt - now < 300_000)
          held = { a: auth(t, undefined, 900), expiresAt: t.sandbox.state.clock.now() + 900_000 };
        ok('read', await get(t, held.a, '/connections'));
        await sleeper(t)(20_000);
      }
    },
  },
  // "renewed, not extended": a token per call of one long-running process, the calls 20 s and 35 s
  // apart in turn (27.5 s on average), each token with 14 of its 15 minutes left.
  {
    does: 'fetches a new 15 min token for each read of one long-running process, its reads 20 s and 35 s apart in turn',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let call = 0; call < 12; call++) {
        ok('read', await get(t, auth(t, undefined, 900), '/connections'));
        await sleeper(t)(call % 2 ? 35_000 : 20_000);
      }
    },
  },
  // "(last number read)": the client sends Last-Event-ID, but the balancer in front strips it, so the
  // service sees a reconnect without a cursor.
  {
    does: 'sends Last-Event-ID on its reconnect after a cut, through a load balancer that strips the header: the service sees no cursor',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      if (!ids.length) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, a, { idleMs: 400 }); // the header the client set never arrives
    },
  },
  // "renewed, not extended": it honours each 429's Retry-After, then takes a new token as well, believing
  // the limit is per token; reads every 2 s, a 429 every third read.
  {
    does: 'waits out each 429’s Retry-After (1 s) and then takes a new 15 min token too, believing limits are per token, reading every 2 s with every third read refused 429',
    fails: ['auth.token-reused'],
    async run(t) {
      let a = auth(t, undefined, 900);
      for (let tick = 0; tick < 15; tick++) {
        if (tick % 3 === 2)
          fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 1, count: 1 });
        const r = await get(t, a, '/connections');
        if (r.status === 429) {
          await sleeper(t)(r.retryAfterMs);
          a = auth(t, undefined, 900);
          ok('retry', await get(t, a, '/connections'));
        }
        await sleeper(t)(2_000);
      }
    },
  },
];
