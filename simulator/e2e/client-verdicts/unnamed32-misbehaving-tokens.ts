import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { clockOf, lruTokenCache, retrofitBackoff } from './unnamed32-kit.ts';

/**
 * Round 32, misbehaving token and version handling: ESP32 firmware losing its token at each deep-sleep
 * wake, a Raku Cro service taking a token per incoming event at an uneven pace, a token cache whose ttl
 * is the token's `expires_in` read as ms, a Service-Version formatted without zero padding.
 */
export const MISBEHAVING_32_TOKENS: (FaultyClient & { options?: SandboxOptions })[] = [
  // "renewed, not extended": the token lives in a plain global, lost at every deep-sleep wake (20 s).
  {
    does: 'is ESP32 firmware keeping its 15 min token in a plain global (not RTC memory), so each deep-sleep wake every 20 s fetches a new one',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let wake = 0; wake < 10; wake++) {
        ok('wake', await get(t, auth(t, undefined, 900), '/connections'));
        await sleeper(t)(20_000);
      }
    },
  },
  // "renewed, not extended": one long-running service fetching a token per incoming order event; orders
  // come 10-13 s and 22-25 s apart in turn (pairs of events), so no three spacings are alike.
  {
    does: 'is a Raku Cro service (one long-running process) fetching a new 15 min token for each incoming order event, events 10-13 s and 22-25 s apart in turn',
    fails: ['auth.token-reused'],
    async run(t) {
      const draw = seeded(3262);
      for (let event = 0; event < 12; event++) {
        ok('event', await get(t, auth(t, undefined, 900), '/connections'));
        await sleeper(t)((event % 2 ? 22_000 : 10_000) + Math.round(draw() * 3_000));
      }
    },
  },
  // "renewed, not extended": an Appwrite function run per order event (every 12 s) fetches a token per
  // execution; every other event's connection was deleted, so half its lookups are answered 404.
  {
    does: 'is an Appwrite function executed per order event every 12 s, fetching a new 15 min token per execution to look up the event’s connection (every other one deleted: 404)',
    fails: ['auth.token-reused'],
    async run(t) {
      const a0 = auth(t);
      const made = await api(t, a0, 'GET', '/connections');
      ok('list', made);
      for (let event = 0; event < 10; event++) {
        const path = event % 2 ? `/connections/con_deleted_${event}` : '/connections';
        await get(t, auth(t, undefined, 900), path);
        await sleeper(t)(12_000);
      }
    },
  },
  // "renewed, not extended": lru-cache's ttl is in ms; `ttl: expires_in` keeps a 900 s token 900 ms.
  {
    does: 'is an integrator caching a token per tenant in node lru-cache with ttl: expires_in (ms, not s), reading its three tenants in turn every 5 s',
    fails: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      const token = lruTokenCache(
        () => clockOf(t),
        (tenant) => as(t, tenant, 900).token,
        900,
      );
      for (let tick = 0; tick < 12; tick++) {
        const tenant = TENANTS[tick % TENANTS.length] ?? TENANTS[0];
        ok(tenant, await get(t, { token: token(tenant), tenant }, '/connections'));
        await sleeper(t)(5_000);
      }
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": sprintf("%d-%d-%d")
  // writes 2026-7-1, which is no published identifier.
  {
    does: 'is ESP32 firmware formatting Service-Version with sprintf("%d-%d-%d", 2026, 7, 1), sending 2026-7-1 on two reads (each refused 400, not repeated)',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { version: '2026-7-1' });
      await sleeper(t)(5_000);
      await api(t, a, 'GET', '/providers', { version: '2026-7-1' });
    },
  },
  // "Tokens are short-lived and are renewed, not extended" and "retry only after rate_limited and internal":
  // the interceptor refreshes on 401 or 403 and replays once, but a 403 is no token problem.
  {
    does: 'is an OAuth interceptor refreshing the token on 401 or 403 and replaying once, so a read for a tenant not released to it (403) is sent again unchanged with a new token',
    // One token replaced is no churn by the rule's words ("two or more tokens ... are replaced").
    fails: ['retry.only-after-failure'],
    async run(t) {
      const first = auth(t, undefined, 900);
      ok('warm', await get(t, first, '/connections'));
      const locked = { ...first, tenant: 'alpine-bistro' };
      const refused = await get(t, locked, '/connections');
      if (refused.status !== 403) throw new Error(`answered ${refused.status}`);
      await get(t, { ...auth(t, undefined, 900), tenant: 'alpine-bistro' }, '/connections');
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a gateway injects the
  // header globally in front of a client that sends its own, so the service gets both, joined.
  {
    does: 'sends Service-Version 2026-06-12 itself behind a Tyk gateway whose global header injection adds 2026-07-01, so the service receives "2026-06-12, 2026-07-01"',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { version: '2026-06-12, 2026-07-01' });
      await sleeper(t)(5_000);
      await api(t, a, 'GET', '/providers', { version: '2026-06-12, 2026-07-01' });
    },
  },
  // "(last number read)", per tenant: one reader for two tenants' streams keeps one lastEventId for both,
  // so the first tenant's stream resumes from the number the second one read last.
  {
    does: 'reads two tenants’ streams with one token and one shared lastEventId variable: after both are cut, the first tenant’s stream resumes from the second tenant’s last id',
    fails: ['stream.resume-from-last-read'],
    options: ALL_TENANTS,
    async run(t) {
      const [one, two] = [TENANTS[0], TENANTS[1]].map((tenant) => as(t, tenant, 900));
      if (!one || !two) throw new Error('no tenants');
      let lastEventId = 0;
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1, tenant: one.tenant });
      lastEventId = (await readStream(t, one, { onOpen: () => publish(t, one.tenant, 3) })).at(-1) ?? lastEventId;
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1, tenant: two.tenant });
      const read = await readStream(t, two, { onOpen: () => publish(t, two.tenant, 2) });
      if (read.at(-1) === lastEventId) throw new Error(`both read up to ${lastEventId}`);
      lastEventId = read.at(-1) ?? lastEventId;
      await sleeper(t)(1_000);
      await readStream(t, one, { cursor: lastEventId, idleMs: 400 });
      await readStream(t, two, { cursor: lastEventId, idleMs: 400 });
    },
  },
  // "renewed, not extended": the retry policy wraps the token provider, which has no cache, so each
  // attempt of a create (same key, growing waits) fetches a token of its own.
  {
    does: 'is an SDK whose retry policy wraps an uncached client_credentials token provider: each attempt of a create through two 500s (same key, 0.5-0.75 s then 1-1.25 s) fetches a new token',
    fails: ['auth.token-reused'],
    async run(t) {
      ok('warm', await get(t, auth(t, undefined, 900), '/connections'));
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Uncached Udon' };
      const wait = retrofitBackoff(seeded(3275));
      const send = () => createWith(t, auth(t, undefined, 900), body, 'sdk-create-51aa');
      ok('create', await retrying(sleeper(t), send, wait));
    },
  },
];
