import { api, auth, CONNECTION, fault, publish, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { contentKey, nodeRetry, readTyped, retryRequest, slackTenRetries, temporalActivity } from './unnamed29-kit.ts';

/**
 * Round 29, misbehaving clients whose violation looks correct: a vendor SDK's default policy, a library
 * that never reads Retry-After, a content-derived key that hashes the send time too, a cursor moved only
 * by the events handled, a "v"-prefixed version, a desktop webview, a natural key, a workflow engine
 * retrying every error. Each must fail exactly its rule(s).
 */
export const MISBEHAVING_29: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": @slack/web-api's default tenRetriesInAboutThirtyMinutes.
  {
    does: 'is a @slack/web-api-style client on its default tenRetriesInAboutThirtyMinutes policy, six attempts of each of two reads through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: slackTenRetries(seeded(2951)), failures: 5, max: 10, ops: 2 });
    },
  },
  // "respect the wait time of the response": retry-request's delay (2 s + up to 1 s) never looks at the
  // 429's Retry-After of 5 s.
  {
    does: 'is a Google retry-request client (2^n s + rand 1 s, retries 2) retrying three reads after a 429 (Retry-After 5 s) on its own delay',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const wait = retryRequest(seeded(2952));
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 5, count: 1 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), wait, 2));
        await sleeper(t)(6_000);
      }
    },
  },
  // "slight random spread": promise-retry's defaults leave randomize false: 1 s, 2 s, 4 s for everyone.
  {
    does: 'is a promise-retry client on its defaults but retries: 3 (factor 2, minTimeout 1 s, randomize false), three reads each through three 500s',
    fails: ['retry.spread'],
    async run(t) {
      const schedule = nodeRetry({ randomize: false }, seeded(2953));
      await readsOn(t, auth(t), sleeper(t), { schedule, failures: 3, max: 3 });
    },
  },
  // "Idempotency keys reused on retries": the key hashes "the whole request", X-Request-Time included, so
  // every attempt of one create gets another key.
  {
    does: 'derives its key from a hash of the request including its X-Request-Time header, so the retry of a create refused 500 carries another key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Timestamped Tagine' };
      const send = () => {
        const at = new Date(t.sandbox.state.clock.now()).toISOString();
        const key = contentKey('POST', '/connections', body, `x-request-time: ${at}`);
        return createWith(t, a, body, key, { 'x-request-time': at });
      };
      ok('create', await loop(sleeper(t), send, nodeRetry({ randomize: true }, seeded(2954)), 2));
    },
  },
  // "(last number read)": the cursor moves only in the order.created handler, so after a cut it resumes
  // from the last order.created and reads the order.paid after it again.
  {
    does: 'moves its cursor only in its order.created handler, so after a cut it resumes before the order.paid it read last',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const seen = await readTyped(t, a, { onOpen: () => publish(t, a.tenant, 2) });
      const handled = seen.filter((m) => m.event === 'order.created').at(-1);
      if (seen.at(-1)?.event !== 'order.paid' || !handled) throw new Error(`read ${JSON.stringify(seen)}`);
      await sleeper(t)(1_000);
      await readTyped(t, a, { cursor: handled.id, idleMs: 500 });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a generated SDK prefixes it.
  {
    does: 'sends Service-Version as v2026-07-01 (a generated SDK prefixing its API version with v)',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors']) await api(t, a, 'GET', path, { version: 'v2026-07-01' });
    },
  },
  // "never sent from a browser": a Tauri desktop app calls from its webview (Origin tauri://localhost)
  // with a token its Rust side fetched.
  {
    does: 'is a Tauri desktop app whose webview calls the service with a token the Rust side fetched (Origin tauri://localhost)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { headers: { origin: 'tauri://localhost' } });
    },
  },
  // "use a new key for each new operation": a natural key from connector and scope label, reused when the
  // same venue is connected again with other capabilities.
  {
    does: 'keys creates by connector and scope label (a natural key), so a second connection of the venue with other capabilities reuses the key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = `${CONNECTION.connectorId}:${CONNECTION.scopeLabel}`.replace(/\s+/g, '-');
      ok('first', await createWith(t, a, CONNECTION, key));
      await sleeper(t)(10_000);
      await createWith(t, a, { ...CONNECTION, capabilities: ['orders.read'] }, key);
    },
  },
  // "retry only after rate_limited and internal": a Temporal activity without NonRetryableErrorTypes
  // retries every error, the 403 of a tenant its client is not released for included.
  {
    does: 'is a Temporal activity (1 s x2, MaximumAttempts 4, no NonRetryableErrorTypes) retrying a create refused 403 under its workflow key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = { ...auth(t), tenant: 'alpine-bistro' };
      const send = () => createWith(t, a, CONNECTION, 'onboard-alpine-7:activity-1');
      const last = await loop(sleeper(t), send, temporalActivity, 3, (r) => r.status !== 200);
      if (last.status !== 403) throw new Error(`answered ${last.status}`);
    },
  },
];
