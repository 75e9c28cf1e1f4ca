import { api, auth, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';
import { podsThrough } from './unnamed24-kit.ts';
import { failsafeBackoff, readsOn } from './unnamed25-kit.ts';

/**
 * Round 25, more misbehaving clients whose violation looks correct: a token cache with its leeway the wrong
 * way round, a stream checkpoint written every five messages, a cursor counted per connection, a browser
 * worker holding a token, an unpadded version date, pods seeded alike, a policy rebuilt per attempt, a
 * failover that skips a 429's wait. Each must fail exactly its rule.
 */
export const MISBEHAVING_MORE_25: FaultyClient[] = [
  // "Tokens are short-lived and are renewed, not extended": a token cache adds a 60 s clock-skew leeway the
  // wrong way (valid until expiry + 60 s), so after the 401 its worker goes on with the expired token.
  {
    does: 'keeps using a token for 45 s after the service answered 401 to it (a cache leeway of expiry + 60 s), on other reads',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const a = auth(t, undefined, 120);
      ok('fresh', await get(t, a, '/providers'));
      await sleeper(t)(125_000);
      const expired = await get(t, a, '/connectors');
      if (expired.status !== 401) throw new Error(`answered ${expired.status}`);
      for (const path of ['/capabilities', '/connections', '/providers?category=pos']) {
        await sleeper(t)(15_000);
        await get(t, a, path);
      }
      ok('renewed', await get(t, auth(t, undefined, 120), '/connectors'));
    },
  },
  // "resumes without gaps ... (last number read)": a consumer checkpoints its cursor every five messages;
  // the pod dies after reading seven and its successor resumes from the checkpoint (5): 6 and 7 read again.
  {
    does: 'checkpoints its cursor every five messages; cut after seven, its restarted pod resumes from the checkpoint (5)',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 7, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 7) });
      if (ids.length !== 7) throw new Error(`read ${ids.length}`);
      await sleeper(t)(20_000);
      const b = auth(t);
      await readStream(t, b, { cursor: ids[4] ?? 0, idleMs: 600 });
    },
  },
  // "resumes ... (last number read)": a consumer sends as Last-Event-ID the number of messages it read on the
  // connection: right after the first cut (numbers start at 1), wrong after the second.
  {
    does: 'sends as Last-Event-ID the count of messages read on the connection: right after the first cut, behind after the second',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const one = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      await sleeper(t)(1_000);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const two = await readStream(t, a, { cursor: one.length, count: 2, onOpen: () => publish(t, a.tenant, 2) });
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: two.length, idleMs: 600 });
    },
  },
  // "Access credentials stay in the partner's backend and are never sent from a browser": a SPA's Web Worker
  // polls the connections with a token handed over by postMessage.
  {
    does: 'is a single-page app’s Web Worker polling the connections with a token handed over by postMessage (Origin of the app)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = {
        origin: 'https://app.partner.example',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'cors',
      };
      // The service refuses it (403): the token was sent from a browser all the same.
      await api(t, a, 'GET', '/connections', { headers });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a Julia client formats the
  // version date with `Dates.format(d, "yyyy-m-d")`, sending 2026-7-1, on reads that otherwise succeed.
  {
    does: 'sends Service-Version 2026-7-1 (the date formatted without zero padding) on its reads',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/providers', { version: '2026-7-1' });
    },
  },
  // "slight random spread": four pods of an Oban cluster all seed `:rand` from the same configured tuple, so
  // their Failsafe-style jitter draws alike and they retry in lockstep.
  {
    does: 'runs four pods (a token each) seeding :rand from one configured tuple, all retrying connectors in lockstep through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'listConnectors', count: 8 });
      await podsThrough(t, { pods: 4, path: '/connectors', seedOf: () => seeded(2536), schedule: failsafeBackoff });
    },
  },
  // "Clients retry with growing intervals": a Failsafe RetryPolicy built inside the retried lambda
  // (withDelay 1 s, withJitter 0.1), so every wait is its first: 900-1100 ms, never growing.
  {
    does: 'builds its Failsafe RetryPolicy (withDelay 1 s, jitter 0.1) inside the retried call, so every wait is 900-1100 ms, five reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const random = seeded(2537);
      const wait = () => Math.round(1_000 * (1 + (random() * 2 - 1) * 0.1));
      await readsOn(t, auth(t), sleeper(t), { schedule: wait, failures: 3, max: 3, ops: 5 });
    },
  },
  // "respect the wait time of the response": on a 429 a client fails over to the second address at once
  // ("the other address has its own limit"); the limit is per access and tenant, not per address.
  {
    does: 'fails over to the second address at once after a 429 (Retry-After 2), on three reads',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const alt = { ...t, baseUrl: t.altBaseUrl };
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        ok(
          path,
          await loop(
            sleeper(t),
            (n) => get(n ? alt : t, a, path),
            () => 0,
            1,
          ),
        );
        await sleeper(t)(5_000);
      }
    },
  },
];
