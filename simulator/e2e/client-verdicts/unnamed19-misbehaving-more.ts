import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { alamofire } from './unnamed19-kit.ts';

/** Round 19, more misbehaving clients: each must fail exactly the rules it breaks, with evidence. */
export const MISBEHAVING_MORE_19: FaultyClient[] = [
  // "Sample calls send a header Service-Version": an openapi-generator typescript-fetch client whose
  // Configuration has no headers, so no Service-Version on any call.
  {
    does: 'is an openapi-generator typescript-fetch client without Service-Version in its Configuration headers',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('providers', await api(t, a, 'GET', '/providers', { version: null }));
      ok(
        'create',
        await api(t, a, 'POST', '/connections', {
          body: { ...CONNECTION, scopeLabel: 'Generated Gyoza' },
          key: 'oag-7f3e91d2-0001',
          version: null,
        }),
      );
    },
  },
  // "slight random spread": Alamofire's RetryPolicy has no jitter; four reads each through two 500s wait
  // exactly 1 s and 2 s.
  {
    does: 'is an Alamofire RetryPolicy (base 2, scale 0.5, no jitter) in a server-side Swift tool, four reads each through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: alamofire, failures: 2, max: 2, ops: 4, from: 0 });
    },
  },
  // "the same key with the same content returns the same response again": a Crossplane provider-http Request
  // whose create key is the managed resource's uid, re-created (new uid) by the reconciler after a 503.
  {
    does: 'is a Crossplane provider-http Request re-created with a new uid (its key) by the reconciler after its create got a 503 after commit',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1964);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Reconciled Ravioli' };
      await loop(
        sleeper(t),
        () => createWith(t, a, body, `xp-${uuid(random)}`),
        (n) => 5_000 * 2 ** n,
        2,
      );
    },
  },
  // "the client resumes without gaps by sending ... (last number read)": a consumer that stores how many
  // messages this connection read, not the last number, as its cursor.
  {
    does: 'is a stream consumer storing the count of messages its current connection read (2) as the cursor instead of the last number (5)',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const first = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      await sleeper(t)(1_000);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const second = await readStream(t, a, {
        cursor: first.at(-1),
        idleMs: 600,
        onOpen: () => publish(t, a.tenant, 2),
      });
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: second.length, idleMs: 600 });
    },
  },
  // "use a new key for each new operation": a Pub/Sub push endpoint keying creates by the connector id
  // (the message's ordering key), so a second venue on that connector reuses the first one's key.
  {
    does: 'is a Pub/Sub push endpoint keying creates by the ordering key (the connector id), so a second venue reuses the first venue’s key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = `ordering-${CONNECTION.connectorId}`;
      ok('first', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Ordering Key Okonomiyaki' }, key));
      await sleeper(t)(3_000);
      const r = await createWith(t, a, { ...CONNECTION, scopeLabel: 'Ordering Key Onigiri' }, key);
      if (r.status !== 409) throw new Error(`answered ${r.status}`);
    },
  },
  // "never sent from a browser": a Chrome extension's service worker holding the partner token in
  // chrome.storage and calling the API itself (Origin: chrome-extension://...).
  {
    does: 'is a Chrome extension service worker calling the API with a token kept in chrome.storage (Origin chrome-extension://)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = { origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop', 'sec-fetch-site': 'none' };
      // The service itself refuses it (403); the verdict is about the credential having left the backend.
      await api(t, a, 'GET', '/providers', { headers });
    },
  },
  // "retry with growing intervals": an Airbyte connector honours a 429's Retry-After (WaitTimeFromHeader),
  // but its 5xx handler is a ConstantBackoffStrategy(5): after the 2 s it owed, 5 s and 5 s.
  {
    does: 'is an Airbyte connector waiting out a 429’s Retry-After (2 s), then retrying two 500s on ConstantBackoffStrategy(5 s)',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
      const wait = (_n: number, r: { status: number; retryAfterMs: number }) =>
        r.status === 429 ? r.retryAfterMs : 5_000;
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), wait, 3));
    },
  },
];
