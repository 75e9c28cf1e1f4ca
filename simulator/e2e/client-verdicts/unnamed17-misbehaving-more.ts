import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { sample } from './unnamed15-kit.ts';
import { httr2Backoff, rayJitter } from './unnamed17-kit.ts';

/**
 * Round 17, more misbehaving clients (keys, browsers, tokens, streams): each breaks one duty and must fail
 * exactly that rule (or the rules it breaks), with evidence. The sentence broken is quoted above it.
 */
export const MISBEHAVING_MORE_17: FaultyClient[] = [
  // "the same key with the same content": a Ray actor keeps its key in memory; the create's connection
  // drops, the actor crashes, Ray restarts it (max_restarts) and the new actor sends the create under a new key.
  {
    does: 'is a Ray actor holding its key in memory only; restarted by Ray after a dropped create, it sends the create again 2 s later under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1761);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Actor Alley Ramen' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, `ray-${uuid(random)}`), rayJitter(random), 1));
    },
  },
  // "never sent from a browser": an Electron renderer (contextIsolation off) calling the API itself with
  // the token from localStorage; Chromium sends its Origin (app://local).
  {
    does: 'is an Electron renderer calling the API itself with a token from localStorage, its requests carrying Origin: app://local',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      ok('read', await get(t, a, '/providers'));
      // The service refuses it (403): the duty broken is sending it, whatever the answer.
      await api(t, a, 'GET', '/connectors', { headers: { origin: 'app://local' } });
    },
  },
  // "never sent from a browser": a Tauri app's webview calling fetch() with the token (Origin:
  // tauri://localhost) instead of asking its Rust backend.
  {
    does: 'is a Tauri webview calling fetch() with the bearer token itself, Origin: tauri://localhost',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { headers: { origin: 'tauri://localhost' } });
    },
  },
  // "A sample client makes up to 4 attempts": a BigQuery remote function retries its create four times
  // inside, then returns a 500 to BigQuery, which calls the function again: four more attempts, one key.
  {
    does: 'is a BigQuery remote function retrying a create 3 times inside, then failing; BigQuery calls it again 5 s later and it tries 4 times more under the same key',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 7 });
      const key = 'bq-remote-job_7Hq2-row-000017';
      const body = { ...CONNECTION, scopeLabel: 'Remote Rotisserie' };
      const inner = () => loop(sleeper(t), () => createWith(t, a, body, key), sample(seeded(1764)), 3);
      if ((await inner()).status !== 500) throw new Error('first call did not fail');
      await sleeper(t)(5_000);
      ok('create', await inner());
    },
  },
  // "the same key with the same content": a Snowflake external function's Lambda keys creates by
  // context.aws_request_id, new per invocation: Snowflake's retry of the batch carries a new key.
  {
    does: 'is a Snowflake external function Lambda keying creates by context.aws_request_id, so Snowflake’s retry of a failed batch sends a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1765);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Snowdrift Sushi' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, uuid(random)), sample(random), 2));
    },
  },
  // "use a new key for each new operation": a Kafka Streams processor keying creates by the record key
  // (the customer id): the customer's second venue reuses the first venue's key and is refused.
  {
    does: 'is a Kafka Streams processor keying creates by the record key (a customer id), the customer’s second venue refused idempotency_conflict',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'customer-00042917';
      ok('first', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Record Key Rooftop' }, key));
      await sleeper(t)(3_000);
      const r = await createWith(t, a, { ...CONNECTION, scopeLabel: 'Record Key Basement' }, key);
      if (r.status !== 409) throw new Error(`answered ${r.status}`);
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a Pulumi dynamic provider fetching a new
  // client-credentials token (1 h) in every read() of a `pulumi refresh` over eight resources.
  {
    does: 'is a Pulumi dynamic provider fetching a new 1 h token in every read() of a refresh over eight resources, 1 s apart',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let i = 0; i < 8; i++) {
        ok(`read ${i}`, await get(t, auth(t, undefined, 3_600), i % 2 ? '/connections' : '/connectors'));
        await sleeper(t)(1_000);
      }
    },
  },
  // "resumes without gaps by sending Last-Event-ID or the query parameter cursor": a Tauri backend that
  // keeps the last id only in the webview's state, so after a cut the Rust side reconnects with no cursor.
  {
    does: 'is a Tauri backend that keeps the last id only in the webview, reconnecting after a cut with no cursor',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      if (ids.length === 0) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "unauthorized (401) ... remedy: request a new access token" and "retry only after rate_limited and
  // internal": an R httr2 req_retry(is_transient = \(r) resp_status(r) >= 400) repeats a 401 of an expired
  // token with the same token, three times.
  {
    does: 'is an R httr2 client whose is_transient takes every status >= 400, repeating a read refused 401 (token expired) three times with the same token',
    fails: ['retry.only-after-failure', 'auth.renewed-after-expiry'],
    async run(t) {
      const a = auth(t, undefined, 60);
      ok('fresh', await get(t, a, '/providers'));
      await sleeper(t)(61_000);
      const r = await loop(
        sleeper(t),
        () => get(t, a, '/connectors'),
        httr2Backoff(seeded(1769)),
        3,
        (x) => x.status >= 400,
      );
      if (r.status !== 401) throw new Error(`answered ${r.status}`);
    },
  },
  // "resumes without gaps ... (last number read)": a Flink SSE source restored from its last checkpoint
  // (taken after message 2) after a TaskManager failure resumes from that checkpoint, not from the last number
  // it read and emitted (5): messages 3 to 5 are read again.
  {
    does: 'is a Flink SSE source restored from a checkpoint taken after message 2, resuming from it though it had read and emitted up to message 5',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 5, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 5) });
      const checkpoint = ids[1];
      if (checkpoint === undefined || ids.length < 5) throw new Error(`read ${ids}`);
      await sleeper(t)(10_000);
      await readStream(t, a, { cursor: checkpoint, idleMs: 600 });
    },
  },
];
