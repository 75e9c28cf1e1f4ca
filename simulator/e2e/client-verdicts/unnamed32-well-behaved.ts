import { type Auth, api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { clockOf, EARLIER_VERSION, esp32Backoff, retrofitBackoff, unrealBackoff } from './unnamed32-kit.ts';
import { WELL_BEHAVED_32_FLEETS } from './unnamed32-well-behaved-fleets.ts';

/** Resolves once `onOpen` was called: a stream the client opened before the next step. */
export const opened = () => {
  let open: () => void = () => {};
  return { wait: new Promise<void>((resolve) => (open = resolve)), onOpen: () => open() };
};

/** A token renewed before each attempt once fewer than `leftMs` of its `ttlS` remain (Retrofit's auth interceptor). */
export function renewing(t: Parameters<typeof auth>[0], ttlS: number, leftMs: number) {
  let a: Auth = auth(t, undefined, ttlS);
  let issued = clockOf(t);
  return () => {
    if (clockOf(t) - issued > ttlS * 1_000 - leftMs) {
      a = auth(t, undefined, ttlS);
      issued = clockOf(t);
    }
    return a;
  };
}

/**
 * Round 32, well-behaved clients of stacks no earlier round used (Unreal's FHttpRetrySystem, ESP32
 * firmware, Retrofit interceptors) and retries that cross a token renewal. Each must get no `fail`; the
 * interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_32: UnnamedClient2[] = [
  // "growing intervals and slight random spread": Unreal's backoff curve draws a coefficient per retry.
  {
    does: 'is an Unreal dedicated server on FHttpRetrySystem (min(2^(n+1) * rand(0.5, 1), 60) s), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) => {
      const wait = unrealBackoff(seeded(3201));
      return readsOn(t, auth(t), sleeper(t), { schedule: (n) => wait(n), failures: 2, max: 3 });
    },
  },
  // "respect the wait time of the response": the curve's wait, or the 429's Retry-After when longer.
  {
    does: 'is an Unreal dedicated server creating under one key through a 429 (Retry-After 2 s, taken as a floor) and a 500',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Unreal Udon' };
      const wait = unrealBackoff(seeded(3202));
      ok('create', await retrying(sleeper(t), () => createWith(t, a, body, 'ue5-http-31c9'), wait));
    },
  },
  // "renewed, not extended": the firmware keeps its token in RTC memory (RTC_DATA_ATTR), which survives
  // deep sleep, and renews it 2 minutes before expiry.
  {
    does: 'is ESP32 firmware waking from deep sleep every 60 s for 30 minutes, its 15 min token kept in RTC memory and renewed 2 minutes before expiry',
    pass: ['auth.token-reused'],
    async run(t) {
      let rtc: { a: Auth; issued: number } | undefined;
      for (let wake = 0; wake < 30; wake++) {
        if (!rtc || clockOf(t) - rtc.issued >= 780_000) rtc = { a: auth(t, undefined, 900), issued: clockOf(t) };
        ok('wake', await get(t, rtc.a, '/connections'));
        await sleeper(t)(60_000);
      }
    },
  },
  // "the same key with the same content": the retry goes out after the interceptor renewed the token
  // (under 60 s left): another token, the same key and body.
  {
    does: 'is a Retrofit client whose create fails 500 with 60.2 s of its 5 min token left; its auth interceptor renews the token during the backoff and the retry carries the same key',
    pass: ['retry.same-key-and-content', 'auth.token-reused'],
    async run(t) {
      const current = renewing(t, 300, 60_000);
      ok('warm', await get(t, current(), '/connections'));
      await sleeper(t)(239_800);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Retrofit Ramen' };
      const wait = retrofitBackoff(seeded(3204));
      ok('create', await retrying(sleeper(t), () => createWith(t, current(), body, 'retrofit-9c2e41'), wait));
      await sleeper(t)(30_000);
      ok('after', await get(t, current(), '/connections'));
    },
  },
  // "respect the wait time of the response": a 429 whose Retry-After spans the renewal is waited out.
  {
    does: 'is a Retrofit client whose read is refused 429 (Retry-After 3 s) with 61 s of its token left; it renews during the wait and reads again after the full 3 s',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const current = renewing(t, 300, 60_000);
      ok('warm', await get(t, current(), '/connectors'));
      await sleeper(t)(239_000);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      const wait = retrofitBackoff(seeded(3205));
      ok('read', await retrying(sleeper(t), () => get(t, current(), '/connectors'), wait));
    },
  },
  // "(last number read)", with "Sample calls send a header Service-Version": a reader pinned to the
  // earlier published version, its stream closed by each token's expiry, resumes with a new token.
  {
    does: 'is an Unreal server pinned to the earlier Service-Version 2026-06-12, whose stream closes when each 15 min token expires and which reopens it at once with a new token and Last-Event-ID',
    pass: ['stream.resume-from-last-read', 'version.service-version-sent'],
    async run(t) {
      let cursor: number | undefined;
      for (let i = 0; i < 2; i++) {
        const a = auth(t, undefined, 900);
        ok('read', await api(t, a, 'GET', '/connections', { version: EARLIER_VERSION }));
        const o = opened();
        const reading = readStream(t, a, {
          ...(cursor === undefined ? {} : { cursor }),
          idleMs: 5_000,
          headers: { 'service-version': EARLIER_VERSION },
          onOpen: o.onOpen,
        });
        await o.wait;
        publish(t, a.tenant, 2);
        await t.sandbox.control.advanceClock(901); // the token expires: the server closes the stream
        const ids = await reading;
        if (ids.length < 2) throw new Error(`read ${ids.join(',')} before the close`);
        cursor = ids.at(-1);
      }
    },
  },
  // "remedy: request a new access token": the stream reopened with the expired token is refused 401;
  // the reader fetches a token and reopens at once from the last id read.
  {
    does: 'is ESP32 firmware whose stream is cut, whose reconnect 2 minutes later is refused 401 (token expired), and which reopens at once with a new token and the last id read',
    pass: ['stream.resume-from-last-read', 'auth.renewed-after-expiry'],
    async run(t) {
      const old = auth(t, undefined, 60);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readStream(t, old, { onOpen: () => publish(t, old.tenant, 2) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(120_000);
      const refused: number[] = [];
      await readStream(t, old, { cursor: last, onRefused: (s) => refused.push(s) });
      if (refused[0] !== 401) throw new Error(`reconnect answered ${refused.join(',')}`);
      await readStream(t, auth(t, undefined, 900), { cursor: last, idleMs: 500 });
    },
  },
  // "growing intervals and slight random spread": the firmware draws esp_random() per retry.
  {
    does: 'is ESP32 firmware retrying reads with delay((1000 << n) + esp_random() % 500), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: esp32Backoff(seeded(3208)), failures: 2, max: 3 }),
  },
  // "renewed, not extended", per tenant: each Gatling virtual user serves one tenant with its own token
  // for the whole run, renewed 2 minutes before expiry.
  {
    does: 'is a Gatling soak test with one virtual user per tenant (three), each holding its own 15 min token renewed 2 minutes before expiry, reading every 20 s for 25 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      const users = TENANTS.map((tenant) => ({ tenant, a: as(t, tenant, 900), issued: clockOf(t) }));
      for (let tick = 0; tick < 75; tick++) {
        for (const u of users) {
          if (clockOf(t) - u.issued >= 780_000) {
            u.a = as(t, u.tenant, 900);
            u.issued = clockOf(t);
          }
          ok(u.tenant, await get(t, u.a, '/connections'));
        }
        await sleeper(t)(20_000);
      }
    },
  },
  // "(last number read)", per tenant: one token for two tenants, a cursor kept per tenant's stream.
  {
    does: 'reads two tenants’ streams with one token, keeping a lastEventId per tenant: after both are cut, each resumes from its own last id',
    pass: ['stream.resume-from-last-read'],
    options: ALL_TENANTS,
    async run(t) {
      const [one, two] = [TENANTS[0], TENANTS[1]].map((tenant) => as(t, tenant, 900));
      if (!one || !two) throw new Error('no tenants');
      const last = new Map<string, number>();
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1, tenant: one.tenant });
      last.set(one.tenant, (await readStream(t, one, { onOpen: () => publish(t, one.tenant, 3) })).at(-1) ?? 0);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1, tenant: two.tenant });
      last.set(two.tenant, (await readStream(t, two, { onOpen: () => publish(t, two.tenant, 2) })).at(-1) ?? 0);
      await sleeper(t)(1_000);
      await readStream(t, one, { cursor: last.get(one.tenant) ?? 0, idleMs: 400 });
      await readStream(t, two, { cursor: last.get(two.tenant) ?? 0, idleMs: 400 });
    },
  },
  ...WELL_BEHAVED_32_FLEETS,
];
