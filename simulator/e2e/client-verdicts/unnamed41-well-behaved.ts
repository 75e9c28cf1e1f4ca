import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { byTokenGroup, cutAndResume } from './unnamed40-kit.ts';
import {
  createAcrossRenewal,
  eioGuidance,
  eioRetryAfter,
  idrisLinear,
  issueKey,
  keyOf,
  kokaDecorrelated,
  renewalMidRetry,
  resetThenResume,
} from './unnamed41-kit.ts';

/**
 * Round 41, well-behaved clients at the rules' edges (keys issued by the service, retries across a token
 * renewal and a tenant switch, a stream resumed after a reset, row-derived keys a day later) in stacks no
 * earlier round named (OCaml Eio, Koka, Idris, Unison). Each must get no `fail`; the interface sentence that
 * makes it legal is quoted.
 */
export const WELL_BEHAVED_41: UnnamedClient2[] = [
  // "growing intervals and slight random spread": the guidance's schedule with Eio.Time.sleep.
  {
    does: 'is an OCaml Eio loop doing Eio.Time.sleep clock (0.5 *. 2. ** n +. Random.float 0.25), three reads through two 500s each',
    pass: ['retry.growing-waits', 'retry.attempt-limit', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: eioGuidance(seeded(4101)), failures: 2, max: 3 }),
  },
  // "growing intervals": decorrelated jitter may draw a shorter wait after a longer one.
  {
    does: 'is a Koka effect handler retrying with decorrelated jitter (min(5 s, random(400, prev * 3))), three reads through three 500s each',
    pass: ['retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: kokaDecorrelated(seeded(4102)), failures: 3, max: 3 }),
  },
  // "growing intervals": linear growth is growth.
  {
    does: 'is an Idris program sleeping (n + 1) * 700 ms plus randomRIO (0, 300), three reads through two 500s each',
    pass: ['retry.growing-waits'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: idrisLinear(seeded(4103)), failures: 2, max: 3, from: 2 }),
  },
  // "respect the wait time of the response": Retry-After as the floor under its own schedule.
  {
    does: 'is an OCaml Eio client sleeping max (Retry-After, its own backoff) through two 429s (Retry-After 2)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), eioRetryAfter(seeded(4104)), 3));
    },
  },
  // "the same key with the same content returns the same response again": the key is fetched from the
  // service once (that POST retried through a 500 like a read: it takes no key), then kept for the retries.
  {
    does: 'is a Unison client fetching its key from POST /idempotency-keys (retried once through a 500), then retrying a committed create that answered 500 under that key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = eioGuidance(seeded(4105));
      fault(t, { kind: 'internal', route: 'createIdempotencyKey', count: 1 });
      const key = keyOf(await loop(sleep, () => issueKey(t, a), wait, 3));
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal' });
      const body = { ...CONNECTION, scopeLabel: 'Unison Udon' };
      replayed('create', await loop(sleep, () => createWith(t, a, body, key), wait, 3));
    },
  },
  // "A sample client makes up to 4 attempts": the 401's retry with a new token goes on counting, and the
  // reads of tenant B between A's attempts are other content.
  {
    does: 'is an integrator whose read of tenant A crosses a token expiry (500, 500, 401) and a tenant switch (B read between), renewed and read a fourth time at once',
    pass: ['retry.attempt-limit'],
    options: ALL_TENANTS,
    run: (t) => renewalMidRetry(t, { freshCount: false }),
  },
  // "renewed, not extended": one worker process per tenant, each with its own 10-minute token renewed after 8.
  {
    does: 'is three Koka workers, one per tenant, each with its own 10-minute token renewed after 8 minutes, reading every 20 s for 20 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    run: (t) =>
      byTokenGroup(t, TENANTS, { group: (tenant) => tenant, ttlS: 600, renewAfterS: 480, everyS: 20, minutes: 20 }),
  },
  // "(last number read)": after a stream.reset the live messages read are the last numbers read.
  {
    does: 'is an Idris stream reader that, after a stream.reset (cursor expired) and three live messages, resumes a cut with the last live id',
    pass: ['stream.resume-from-last-read'],
    run: (t) => resetThenResume(t, auth(t), (ids) => ids.at(-1) ?? 0),
  },
  // "use a new key for each new operation": a key is the service's for 24 h; the job re-run a day later
  // sends each row's key again with the same content, a new key by then.
  {
    does: 'is a WasmEdge batch importer keying three creates by a hash of each row, re-run 25 hours later with a new token, the same rows, keys and content',
    pass: [],
    async run(t) {
      const rows = ['Eio Eel Bar', 'Koka Kitchen', 'Idris Inn'];
      for (const day of [0, 1]) {
        const a = auth(t);
        for (const [i, scopeLabel] of rows.entries()) {
          const r = await createWith(t, a, { ...CONNECTION, scopeLabel }, `row-sha1-4109-${i}`);
          if (r.status !== 200) throw new Error(`day ${day} row ${i} answered ${r.status}`);
          await sleeper(t)(1_500);
        }
        if (day === 0) await sleeper(t)(25 * 3_600_000);
      }
    },
  },
  // "Sample calls send a header Service-Version": the key request and the stream carry it too.
  {
    does: 'is a Unison client sending Service-Version on a key request, a create under that key, a read and a stream open',
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const key = keyOf(await issueKey(t, a));
      ok('create', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Unison Udon Two' }, key));
      ok('read', await get(t, a, '/connections'));
      await cutAndResume(t, a, { n: 2, resumeAt: (ids) => ids.at(-1) ?? 0 });
    },
  },
  // "retry only after rate_limited and internal": after a 429 on tenant A the integrator reads tenant B,
  // then A again once the Retry-After has passed.
  {
    does: 'is an integrator that, after a 429 on tenant A (Retry-After 2), reads tenant B at once and retries A after 2.1 s',
    pass: ['retry.respects-retry-after'],
    options: ALL_TENANTS,
    async run(t) {
      const [A, B] = TENANTS;
      const integrator = as(t, A, 600);
      fault(t, { kind: 'rate_limited', route: 'listProviders', tenant: A, retryAfterSeconds: 2, count: 1 });
      const refused = await get(t, integrator, '/providers');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      ok('B', await get(t, { ...integrator, tenant: B }, '/providers'));
      await sleeper(t)(2_100);
      ok('A', await get(t, integrator, '/providers'));
    },
  },
  // "retry only after rate_limited and internal": a 404 is not repeated; the key request is not either.
  {
    does: 'is an Eio client reading an unknown connection (404) once, then fetching a key and creating it',
    pass: [],
    async run(t) {
      const a = auth(t);
      const missing = await api(t, a, 'GET', '/connections/con_missing_4112');
      if (missing.status !== 404) throw new Error(`answered ${missing.status}`);
      const key = keyOf(await issueKey(t, a));
      ok('create', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Eio Empanadas' }, key));
    },
  },
  // "remedy: request a new access token" and "the same key with the same content": the retry of a committed
  // create meets an expired token; the new token carries the same key, and the outcome is replayed.
  {
    does: 'is an Idris client retrying a committed create (500) 1.2 s later into a 401 (token expired), then at once with a new token and the same key',
    pass: ['retry.same-key-and-content'],
    run: async (t) => void replayed('create', await createAcrossRenewal(t, 'Idris Ika', ['idris-4113', 'idris-4113'])),
  },
  // "respect the wait time of the response": the token expires during the Retry-After; the 401 is remedied at once.
  {
    does: 'is an Eio client whose keyed create gets a 429 (Retry-After 3), whose 2-second token expired during the wait (401), renewed and sent at once under the same key',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const body = { ...CONNECTION, scopeLabel: 'Eio Elote' };
      const a = auth(t, undefined, 2);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      const refused = await createWith(t, a, body, 'eio-4114');
      await sleeper(t)(refused.retryAfterMs + 50);
      const expired = await createWith(t, a, body, 'eio-4114');
      if (refused.status !== 429 || expired.status !== 401) throw new Error(`${refused.status}, ${expired.status}`);
      ok('create', await createWith(t, auth(t), body, 'eio-4114'));
    },
  },
];
