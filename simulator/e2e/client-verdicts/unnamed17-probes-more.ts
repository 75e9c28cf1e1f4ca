import { CURRENT_VERSION } from '../../contract/versions.ts';
import { held, sleepOn, type Target, untilHeld } from '../harness.ts';
import { type Auth, api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';

/** A create its client may kill before the answer (Spark killing the slower copy of a speculated task). */
function killableCreate(t: Target, a: Auth, body: object, key: string) {
  const ctrl = new AbortController();
  const reply = t
    .fetch(`${t.baseUrl}/api/public/v1/connections`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${a.token}`,
        'x-service-tenant': a.tenant,
        'service-version': CURRENT_VERSION,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify(body),
      signal: ctrl.signal,
    })
    .then((res) => res.status)
    .catch(() => 0);
  return { reply, kill: () => ctrl.abort() };
}

/** Round 17, more probes: a stream reconnect refused 429, speculation under a new key, one key on two routes. */
export const WELL_BEHAVED_PROBES_MORE_17: UnnamedClient2[] = [
  // "respect the wait time of the response" and "resumes without gaps": a Flink SSE source whose
  // reconnect after a cut is refused 429 (Retry-After: 3); it waits 3 s and reconnects with the same cursor.
  {
    does: 'is a Flink SSE source whose reconnect after a cut is refused 429 (Retry-After: 3), waiting 3 s and reconnecting with the same Last-Event-ID',
    pass: ['stream.resume-from-last-read', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      fault(t, { kind: 'rate_limited', route: '/api/public/v1/stream', retryAfterSeconds: 3, count: 1 });
      await sleepOn(t, 1_000);
      let retryAfterMs = 0;
      await readStream(t, a, { cursor: last, idleMs: 400, onRefused: (_s, ms) => (retryAfterMs = ms) });
      if (retryAfterMs !== 3_000) throw new Error(`no 429: ${retryAfterMs}`);
      await sleepOn(t, retryAfterMs);
      await readStream(t, a, { cursor: last, idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "token expired ... remedy: request a new access token": an Electron main process after a laptop slept
  // 2 h: three IPC requests go out at once with the expired token, all answered 401; the main process
  // renews once and sends the three again with the new token.
  {
    does: 'is an Electron main process waking after 2 h asleep: three requests with the expired token all answered 401, one renewal, the three sent again with the new token',
    pass: [],
    async run(t) {
      const old = auth(t, undefined, 3_600);
      ok('before sleep', await api(t, old, 'GET', '/providers'));
      await sleepOn(t, 2 * 3_600_000);
      const paths = ['/providers', '/connectors', '/connections'];
      const first = await Promise.all(paths.map((p) => api(t, old, 'GET', p)));
      if (first.some((r) => r.status !== 401)) throw new Error(`answered ${first.map((r) => r.status)}`);
      const renewed = auth(t, undefined, 3_600);
      for (const r of await Promise.all(paths.map((p) => api(t, renewed, 'GET', p)))) ok('after renewal', r);
    },
  },
  // "the same key with the same content": a Ray actor that writes its key to the GCS-backed KV store
  // before calling; its create drops, the actor crashes, Ray restarts it and the new actor (a new token)
  // reads the key back and sends the create again 3 s later.
  {
    does: 'is a Ray actor persisting its key in the KV store before calling; restarted after a dropped create, it fetches a new token and resends under the stored key 3 s later',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const before = auth(t, undefined, 3_600);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const key = 'ray-kv-venue-actor-17-create-1';
      const body = { ...CONNECTION, scopeLabel: 'Restarted Ramen Actor' };
      if ((await createWith(t, before, body, key)).status !== 0) throw new Error('not dropped');
      await sleepOn(t, 3_000);
      const after = auth(t, undefined, 3_600);
      const r = await createWith(t, after, body, key);
      if (r.status !== 200 || r.json?.meta?.replayed !== true) throw new Error(`answered ${r.status}`);
    },
  },
];

export const MISBEHAVING_PROBES_MORE_17: FaultyClient[] = [
  // "the same key with the same content": Spark speculation again, but the task keys its create by its
  // task attempt id: the speculative copy on the second executor (its own token) carries a new key while
  // the original is awaited, and Spark kills the original once the copy has finished.
  {
    does: 'is a Spark job keying creates by task attempt id: a speculative copy on another executor 2 s in sends the slow create under a new key, the original then killed',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const first = auth(t, undefined, 3_600);
      const second = auth(t, undefined, 3_600);
      const body = { ...CONNECTION, scopeLabel: 'Attempt Id Arepas' };
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 6_000, count: 1 });
      const before = held(t);
      const original = killableCreate(t, first, body, 'spark-attempt-0-task-41');
      await untilHeld(t, before);
      await sleepOn(t, 2_000);
      ok('copy', await createWith(t, second, body, 'spark-attempt-1-task-41'));
      original.kill();
      await original.reply;
      // The service finishes the killed call's hold (4 s left) before it records it.
      await sleepOn(t, 5_000);
    },
  },
  // "use a new key for each new operation": a Chef run using one key per run (chef-run-<id>) for both its
  // webhook registration and its connection create; the service compares method and route too, and refuses
  // the create idempotency_conflict.
  {
    does: 'is a Chef run using one key per run for both its webhook registration and its connection create, the create refused idempotency_conflict',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'chef-run-5d1e9b7c-0a42';
      const hook = { url: 'http://127.0.0.1:9/hooks', events: ['order.created'] };
      ok('webhook', await api(t, a, 'POST', '/webhooks', { key, body: hook }));
      await sleepOn(t, 1_000);
      const created = await createWith(t, a, { ...CONNECTION, scopeLabel: 'One Key Kebab' }, key);
      if (created.status !== 409) throw new Error(`answered ${created.status}`);
    },
  },
];
