import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { sample } from './unnamed15-kit.ts';
import { rayJitter, wpCronDelay } from './unnamed17-kit.ts';

/**
 * Round 17, more well-behaved clients (Spark, Ray, Electron, Tauri, WordPress, Power Automate, Jenkins,
 * Chef, Snowflake, BigQuery, dbt). Each must get no `fail`; the sentence that makes it legal is quoted.
 */
export const WELL_BEHAVED_MORE_17: UnnamedClient2[] = [
  // "A failed create sent again by a sibling is its retry": a Spark job's mapPartitions creates one
  // connection per row, keyed `${appId}-${partitionId}-${row}`; its task fails on a 500 and Spark runs the
  // task again on another executor (a token of its own), which sends the same key.
  {
    does: 'is a Spark job whose mapPartitions task keys creates by appId-partition-row; a 500 fails the task and Spark reruns it on another executor with its own token and the same key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const first = auth(t, undefined, 3_600);
      const second = auth(t, undefined, 3_600);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = 'app-20261127082200-0001-p3-r0';
      const body = { ...CONNECTION, scopeLabel: 'Partition Pizzeria' };
      if ((await createWith(t, first, body, key)).status !== 500) throw new Error('no 500');
      ok('catalog', await get(t, first, '/capabilities'));
      await sleeper(t)(1_500);
      replayed('rerun', await createWith(t, second, body, key));
    },
  },
  // "Clients retry with growing intervals and slight random spread": a Ray task wrapping its call in
  // `time.sleep(min(30, 0.5 * 2**n) * random.uniform(1, 1.5))`, three reads through two 500s.
  {
    does: 'is a Ray remote task sleeping min(30, 0.5 * 2^n) * uniform(1, 1.5) s between attempts, three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: rayJitter(seeded(1711)), failures: 2, max: 3, from: 2 });
    },
  },
  // "Access credentials stay in the partner's backend and are never sent from a browser": an Electron app
  // whose renderer asks the main process over ipcRenderer.invoke; the main process holds the token and
  // calls with net.fetch (Node's stack: no Origin header).
  {
    does: 'is an Electron app whose renderer asks the main process over IPC; the main process holds the token and calls the API itself, no Origin sent',
    pass: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors', '/connections']) {
        ok(path, await get(t, a, path));
        await sleeper(t)(2_000);
      }
    },
  },
  // "resumes without gaps by sending Last-Event-ID": a Tauri app's Rust backend (reqwest, no Origin)
  // reads the stream and emits each message to the webview; after a cut it resumes with Last-Event-ID.
  {
    does: 'is a Tauri app whose Rust backend reads the stream with reqwest and emits to the webview, resuming with Last-Event-ID 2 s after a cut',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 4, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 4) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(2_000);
      await readStream(t, a, { cursor: last, idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "the same key with the same content": a WordPress plugin posting with wp_remote_post; on a 500 it
  // stores the key in wp_options and schedules wp_schedule_single_event(time() + 30 + wp_rand(0, 15)),
  // whose callback sends the create again under the stored key.
  {
    does: 'is a WordPress plugin storing its key in wp_options after a 500 and retrying the create from a WP-Cron single event 30-45 s later under it',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1714);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = `wp-${uuid(random)}`;
      const body = { ...CONNECTION, scopeLabel: 'Plugin Patisserie' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), wpCronDelay(random), 2));
    },
  },
  // "A read polled at a steady cadence is polling": a Power Automate "Do until" loop reading the
  // connections every 30 s until the new venue is active, through one 500 (the next iteration on schedule).
  {
    does: 'is a Power Automate Do until loop reading connections every 30 s for 5 minutes, one iteration answered 500 and the next on schedule',
    pass: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 10; i++) {
        if (i === 4) fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
        await get(t, a, '/connections');
        await sleeper(t)(30_000);
      }
    },
  },
  // "retry only after rate_limited and internal": a Jenkins pipeline's httpRequest step with
  // validResponseCodes '200:299', wrapped in retry(conditions) that rethrows on 4xx, sleeping the sample
  // schedule otherwise; three reads through two 500s.
  {
    does: 'is a Jenkins pipeline retrying an httpRequest step only on 429/5xx with sleep(500 * 2^n + random 250 ms), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: sample(seeded(1716)), failures: 2, max: 3 });
    },
  },
  // "the same key with the same content": a Chef http_request resource with `retries 1, retry_delay 3`,
  // its Idempotency-Key computed at compile time from the node name and the venue.
  {
    does: 'is a Chef http_request resource (retries 1, retry_delay 3) whose key is computed at compile time, its create retried once after a gateway 503',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const key = 'chef-node-web-03-harbour-deck';
      const body = { ...CONNECTION, scopeLabel: 'Recipe Row Canteen' };
      replayed(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, key),
          () => 3_000,
          1,
        ),
      );
    },
  },
  // "the same key with the same content": a Snowflake external function's Lambda keys each create by the
  // sf-external-function-query-batch-id header and row number, which Snowflake keeps when it retries a batch.
  {
    does: 'is a Snowflake external function Lambda keying creates by sf-external-function-query-batch-id and row, the batch retried by Snowflake after a 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = '01b1c2d3-0000-4a5b-0000-00016f2e9a41:0';
      const body = { ...CONNECTION, scopeLabel: 'Warehouse Wok' };
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), sample(seeded(1718)), 3));
    },
  },
  // "respect the wait time of the response": a BigQuery remote function (a Cloud Run service) checking a
  // capability per row, sleeping a 429's Retry-After (3 s) plus a small draw before its single retry.
  {
    does: 'is a BigQuery remote function on Cloud Run sleeping a 429’s Retry-After (3 s) plus a draw before retrying a capability check',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1719);
      fault(t, { kind: 'rate_limited', route: 'checkCapability', retryAfterSeconds: 3, count: 1 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'payments.refund', environment: 'sandbox' };
      const wait = (_n: number, r: { retryAfterMs: number }) => r.retryAfterMs + Math.floor(random() * 300);
      ok('check', await loop(sleeper(t), () => api(t, a, 'POST', '/capabilities', { body }), wait, 2));
    },
  },
  // "retry with growing intervals": a dbt Python model paging the audit log with limit=, one page
  // answered 429 (Retry-After: 2) waited out, the others read 1 s apart.
  {
    does: 'is a dbt Python model reading the audit log in four pages of limit=25, one page refused 429 and read again after its Retry-After (2 s)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (let page = 1; page <= 4; page++) {
        if (page === 3) fault(t, { kind: 'rate_limited', route: 'getAuditLog', retryAfterSeconds: 2, count: 1 });
        const wait = (_n: number, r: { retryAfterMs: number }) => r.retryAfterMs + 100;
        ok(`page ${page}`, await loop(sleeper(t), () => get(t, a, `/audit-log?limit=${25 * page}`), wait, 2));
        await sleeper(t)(1_000);
      }
    },
  },
];
