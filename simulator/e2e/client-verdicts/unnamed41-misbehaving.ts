import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { cutAndResume } from './unnamed40-kit.ts';
import {
  createAcrossRenewal,
  eioGuidance,
  eioRetryAfterAsMs,
  issueKey,
  KOKA_RETRIES,
  keyOf,
  nifiPenalty,
  renewalMidRetry,
  resetThenResume,
  wasmEdgeOnce,
} from './unnamed41-kit.ts';

/**
 * Round 41, misbehaving clients whose violation looks correct: a key fetched anew from the service for each
 * retry, a retry counter that starts again with a new token, a jitter drawn once per module, Retry-After read
 * as ms, NiFi's fixed penalty, Koka's retry(5), a version sent on the first call only, a create refused 400
 * sent again under a new key with only a trace id changed, a body stamped anew under the same key, an
 * at-least-once reader resuming at last id - 1 or from before a reset, a Chrome extension, tokens taken per tenant
 * switch, a new key made with a renewed token, a second resolver inside a Retry-After, one key on two routes, a
 * hash set serialised in another order on a retry.
 */
export const MISBEHAVING_41: (FaultyClient & { options?: SandboxOptions })[] = [
  // "the same key with the same content": the retry fetches a fresh key from the service ("keys come from the server").
  {
    does: 'is a Unison client fetching a fresh key from POST /idempotency-keys for each attempt of a create that answered 500',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Unison Umami' };
      const wait = eioGuidance(seeded(4121));
      ok('create', await loop(sleeper(t), async () => createWith(t, a, body, keyOf(await issueKey(t, a))), wait, 3));
    },
  },
  // "up to 4 attempts": the counter lives in the token's session object and starts again with the new token.
  {
    does: 'is an integrator whose retry counter starts again after a token renewal: tenant A read through 500, 500, 401 (expired), then four more attempts with the new token',
    fails: ['retry.attempt-limit'],
    options: ALL_TENANTS,
    run: (t) => renewalMidRetry(t, { freshCount: true }),
  },
  // "slight random spread": the draw is made once per module instance, so every sequence waits alike.
  {
    does: 'is a WasmEdge module drawing its jitter once at start-up and adding it to 500 * 2^n, three reads through two 500s each',
    fails: ['retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: wasmEdgeOnce(seeded(4123)), failures: 2, max: 3 }),
  },
  // "respect the wait time of the response": Retry-After 2 read as 2 ms, so its own 0.5 s backoff wins.
  {
    does: 'is an OCaml Eio client reading Retry-After with float_of_string s /. 1000. (as ms) under its own backoff, after a 429 (Retry-After 2)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), eioRetryAfterAsMs(seeded(4124)), 3));
    },
  },
  // "growing intervals and slight random spread": NiFi penalises a FlowFile by the same 30 s each time.
  {
    does: 'is an Apache NiFi InvokeHTTP with RetryFlowFile (Maximum Retries 3) penalising by its default 30 sec, three reads through two 500s each',
    fails: ['retry.growing-waits', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: nifiPenalty, failures: 2, max: 3 }),
  },
  // "up to 4 attempts": retry(5) is five retries, six attempts.
  {
    does: 'is a Koka handler retry(5) (meant as five attempts) with the guidance schedule, one read through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: KOKA_RETRIES });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), eioGuidance(seeded(4126)), KOKA_RETRIES));
    },
  },
  // "a header Service-Version": sent as a handshake on the first call only.
  {
    does: 'is a Unison client sending Service-Version on its first call only (a session handshake), then reading without it',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('first', await get(t, a, '/providers'));
      ok('second', await api(t, a, 'GET', '/connectors', { version: null }));
    },
  },
  // "retry only after rate_limited and internal": a new key and a new trace id change nothing the 400 was about.
  {
    does: 'is an Idris client whose create is refused 400 (unknown environment) and sent again after 1 s, same body, under a new key and a new X-Request-Id',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Idris Ikura', environment: 'staging-eu' };
      const first = await createWith(t, a, body, 'idris-4128-a', { 'x-request-id': 'req-1' });
      if (first.status !== 400) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      await createWith(t, a, body, 'idris-4128-b', { 'x-request-id': 'req-2' });
    },
  },
  // "the same key with different content yields idempotency_conflict": the label is stamped with the send time.
  {
    does: 'is a Koka client whose serialiser stamps the scopeLabel with the send time, retrying a 500 create under the same key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const wait = eioGuidance(seeded(4129));
      const stamped = (n: number) => ({ ...CONNECTION, scopeLabel: `Koka Kofta @${14 + n}:02:03` });
      await loop(sleeper(t), (n) => createWith(t, a, stamped(n), 'koka-4129'), wait, 3);
    },
  },
  // "(last number read)": at-least-once reading resumes one back, so the last message comes again.
  {
    does: 'is an Idris stream reader resuming a cut with Last-Event-ID of last id - 1, so the last message is redelivered (at-least-once)',
    fails: ['stream.resume-from-last-read'],
    run: (t) => cutAndResume(t, auth(t), { n: 5, resumeAt: (ids) => (ids.at(-1) ?? 1) - 1 }),
  },
  // "(last number read)": after the reset, the reader resumes from the cursor it had before it.
  {
    does: 'is an OCaml Eio stream reader that ignores what it read after a stream.reset and resumes the next cut with its cursor from before the reset',
    fails: ['stream.resume-from-last-read'],
    run: (t) => resetThenResume(t, auth(t), (ids) => ids[2] ?? 0),
  },
  // "never sent from a browser": an extension's service worker is a browser context, and sends Origin.
  {
    does: 'is a Chrome extension service worker calling the service with a token from chrome.storage (Origin chrome-extension://abc)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      await api(t, auth(t), 'GET', '/providers', { headers: { origin: 'chrome-extension://abcdefghijklmnop' } });
    },
  },
  // "renewed, not extended": a new 10-minute token at every tenant switch, every few seconds.
  {
    does: 'is a WasmEdge integrator taking a new 10-minute token at each tenant switch, reading its three tenants every 10 s for 3 minutes',
    fails: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      for (let step = 0; step < 18; step++) {
        for (const tenant of TENANTS) {
          ok(tenant, await get(t, as(t, tenant, 600), '/connectors'));
          await sleeper(t)(3_000);
        }
        await sleeper(t)(1_000);
      }
    },
  },
  // "the same key with the same content": the token was the remedy, but the request builder that set the new
  // Authorization header made a new Idempotency-Key with it.
  {
    does: 'is an Idris client whose request builder, rebuilt with the new token after a 401, makes a new Idempotency-Key for the retry of a committed create (500)',
    fails: ['retry.same-key-and-content'],
    run: async (t) => void (await createAcrossRenewal(t, 'Idris Inari', ['idris-4134-a', 'idris-4134-b'])),
  },
  // "respect the wait time of the response": a second resolver of the same batch asks for the same list
  // 500 ms into the first one's Retry-After.
  {
    does: 'is a Koka dataloader whose second resolver reads /providers 500 ms after the first got a 429 (Retry-After 2) for it',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      const refused = await get(t, a, '/providers');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(500);
      ok('second resolver', await get(t, a, '/providers'));
    },
  },
  // "use a new key for each new operation": keys scoped per route in the client's mind (as a per-endpoint
  // key store), but the service compares them across routes and answers idempotency_conflict.
  {
    does: 'is a Unison client using one Idempotency-Key for a connection create and then (other content) a webhook registration, its key store scoped per route',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      ok('create', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Unison Ube' }, 'unison-4137'));
      await sleeper(t)(1_000);
      const body = { url: 'http://127.0.0.1:9/hooks', events: ['order.created'] };
      const hook = await api(t, a, 'POST', '/webhooks', { body, key: 'unison-4137' });
      if (hook.status !== 409) throw new Error(`webhook answered ${hook.status}`);
    },
  },
  // "the same key with the same content": capabilities kept in a hash set serialise in another order on the
  // retry; the set is the same, the JSON array (and so the content) is not.
  {
    does: 'is a Koka client keeping capabilities in a hash set, whose retry of a 429 create (Retry-After 1) under the same key lists them in another order',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Koka Kimbap' };
      const refused = await createWith(t, a, body, 'hashset-4150');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_100);
      const reordered = { ...body, capabilities: [...CONNECTION.capabilities].reverse() };
      ok('create', await createWith(t, a, reordered, 'hashset-4150'));
    },
  },
];
