import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { gmtRetryAfter, nowOf, rxjsDelay, swooleBackoff, telegrafInterval, unityCoroutine } from './unnamed31-kit.ts';

/**
 * Round 31, well-behaved clients of stacks no earlier round used (RxJS, Swoole, a Unity dedicated server,
 * Telegraf-style polling) and remedies the interface names. Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_31: UnnamedClient2[] = [
  // "growing intervals and slight random spread": RxJS retry({ count: 3, delay }) with a fresh draw per retry.
  {
    does: 'is an RxJS pipe with retry({ count: 3, delay: (_e, i) => timer(500 * 2 ** (i - 1) + Math.random() * 250) }), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: rxjsDelay(seeded(3101)), failures: 2, max: 3 }),
  },
  // "respect the wait time of the response": a Swoole coroutine keys the create once, outside its loop,
  // and sleeps the larger of its backoff and the Retry-After.
  {
    does: 'is a Swoole coroutine (Co::sleep(min(0.25 * 3^n, 8) + mt_rand(0, 200) / 1000)) creating under one key through a 429 (Retry-After 2 s) and a 500',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Swoole Souvlaki' };
      const wait = swooleBackoff(seeded(3102));
      ok(
        'create',
        await retrying(
          sleeper(t),
          () => createWith(t, a, body, 'swoole-co-7d21'),
          (n) => wait(n),
        ),
      );
    },
  },
  // "growing intervals": a Unity headless server's coroutine, WaitForSeconds(2^n * 0.75 + Random.Range(0, 0.3)).
  {
    does: 'is a Unity headless dedicated server whose coroutine waits WaitForSeconds(2^n * 0.75f + Random.Range(0f, 0.3f)), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: unityCoroutine(seeded(3103)), failures: 2, max: 3 }),
  },
  // "Idempotency keys reused on retries": the Unity server makes the key once per operation (a Guid held
  // by the coroutine's caller), and each attempt is a new UnityWebRequest carrying it.
  {
    does: 'is a Unity headless server whose create coroutine takes its Guid key from the caller, every new UnityWebRequest of a retry carrying it, through a 503 (Retry-After 1 s)',
    pass: ['retry.same-key-and-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Unity Udon' };
      const wait = unityCoroutine(seeded(3104));
      ok(
        'create',
        await retrying(
          sleeper(t),
          () => createWith(t, a, body, 'unity-5f0c2b9e'),
          (n) => wait(n),
        ),
      );
    },
  },
  // "A read polled at a steady cadence is polling": a Telegraf-style agent collecting every 10 s plus a
  // collection_jitter draw of up to 2 s, whatever the last answer.
  {
    does: 'is a Telegraf-style agent (interval 10s, collection_jitter 2s) reading the connections each collection, through two 500s',
    pass: [],
    async run(t) {
      const a = auth(t);
      const next = telegrafInterval(seeded(3105));
      for (let i = 0; i < 9; i++) {
        if (i === 4) fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
        await get(t, a, '/connections');
        await sleeper(t)(next());
      }
    },
  },
  // "remedy: request a new access token": after the 401 of an expired token the same read goes out at once
  // with a new token (the remedy done, not a repeat).
  {
    does: 'is an RxJS client whose catchError on a 401 fetches a new token and sends the same read at once',
    pass: ['auth.renewed-after-expiry'],
    async run(t) {
      const old = auth(t, undefined, 60);
      ok('first', await get(t, old, '/connections'));
      await sleeper(t)(120_000);
      const refused = await get(t, old, '/connections');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      const fresh = auth(t, undefined, 900);
      ok('again', await get(t, fresh, '/connections'));
      ok('later', await get(t, fresh, '/providers'));
    },
  },
  // "renewed, not extended": one token (15 min) for three tenants, renewed 3 min before it expires.
  {
    does: 'is an integrator holding one 15 min token for three tenants, renewed 3 minutes before expiry, each tenant read once a minute for 25 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      let a = as(t, TENANTS[0], 900);
      let issued = nowOf(t);
      for (let m = 0; m < 25; m++) {
        if (nowOf(t) - issued >= 720_000) {
          a = as(t, TENANTS[0], 900);
          issued = nowOf(t);
        }
        for (const tenant of TENANTS) ok(tenant, await get(t, { ...a, tenant }, '/connections'));
        await sleeper(t)(60_000);
      }
    },
  },
  // "A sibling process sending a dead pod's failed create again ... must carry its key": the Swoole
  // worker dies after its 500; its sibling (its own token) takes the job with the key in its payload.
  {
    does: 'is a pair of Swoole worker processes: one gets a 500 for a create and dies, the sibling (its own token) takes the job 2 s later with the key from the job payload',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Sibling Shakshuka' };
      const failed = await createWith(t, auth(t), body, 'job-4411-swoole');
      if (failed.status !== 500) throw new Error(`answered ${failed.status}`);
      await sleeper(t)(2_000);
      ok('sibling', await createWith(t, auth(t), body, 'job-4411-swoole'));
    },
  },
  // "renewed, not extended", across processes: two sibling processes of one integrator, each with its own
  // token for all three tenants (15 min), each renewed 3 min before its own expiry, started 5 min apart.
  {
    does: 'is two sibling processes of one integrator, each holding its own 15 min token for three tenants (started 5 min apart), each renewing 3 minutes before expiry, reading every 30 s for 25 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      const procs = [0, 1].map(() => ({ a: as(t, TENANTS[0], 900), issued: nowOf(t), from: 0 }));
      const second = procs[1];
      if (second) second.from = 10;
      for (let half = 0; half < 50; half++) {
        for (const [i, p] of procs.entries()) {
          if (half < p.from) continue;
          if (half === p.from || nowOf(t) - p.issued >= 720_000) {
            p.a = as(t, TENANTS[0], 900);
            p.issued = nowOf(t);
          }
          const tenant = TENANTS[(half + i) % TENANTS.length] ?? TENANTS[0];
          ok(tenant, await get(t, { ...p.a, tenant }, '/connections'));
        }
        await sleeper(t)(30_000);
      }
    },
  },
  // "(last number read)": an SSE reader resuming with ?cursor= after the server restarted, having waited
  // the 503's Retry-After first.
  {
    does: 'is a Swoole SSE reader that, after a server restart, waits the 503’s Retry-After and resumes with ?cursor= set to the last id read',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 2_000, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      const refusals: number[] = [];
      await readStream(t, a, { cursor: last, asQuery: true, onRefused: (_s, ra) => refusals.push(ra) });
      if (refusals.length !== 1) throw new Error('the reconnect during the restart was not refused');
      await sleeper(t)(Math.max(...refusals, 2_000));
      await readStream(t, a, { cursor: last, asQuery: true, idleMs: 500 });
    },
  },
  // "respect the wait time of the response": a Retry-After parsed as an HTTP-date in GMT and rounded up
  // to the whole second of the date (the wait is never shorter).
  {
    does: 'parses Retry-After as an HTTP-date with its GMT zone (java.time RFC_1123_DATE_TIME) and sleeps until that whole second, after a 429 (Retry-After 2 s)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          (_n, r) => gmtRetryAfter(nowOf(t), r),
          2,
        ),
      );
    },
  },
  // "remedy: request a new access token": a create refused 401 (expired token) never ran; it goes out
  // again at once with a new token and the key of its operation.
  {
    does: 'is a Swoole worker whose create is refused 401 (token expired), fetching a new token and sending the create again at once under the same key',
    pass: ['auth.renewed-after-expiry', 'idempotency.one-key-one-content'],
    async run(t) {
      const old = auth(t, undefined, 60);
      ok('first', await get(t, old, '/connections'));
      await sleeper(t)(120_000);
      const body = { ...CONNECTION, scopeLabel: 'Renewed Rosti' };
      const refused = await createWith(t, old, body, 'swoole-renew-31');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      ok('create', await createWith(t, auth(t, undefined, 900), body, 'swoole-renew-31'));
    },
  },
  // "idempotency_required ... use a new key": the create sent without a key (428) is sent again with one.
  {
    does: 'is a Unity headless server whose first create goes out without a key (428 idempotency_required) and is sent again at once with a Guid key',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Keyless Kofta' };
      const refused = await api(t, a, 'POST', '/connections', { body });
      if (refused.status !== 428) throw new Error(`answered ${refused.status}`);
      ok('create', await createWith(t, a, body, 'unity-after-428'));
    },
  },
  // "resumes without gaps ... (last number read)": the stream goes silent; the reader's idle timer ends it
  // and it reconnects from the last id it read.
  {
    does: 'is an SSE reader whose idle timer gives up on a silent stream (no heartbeats) and reconnects with Last-Event-ID set to the last id read',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_stall', afterMessages: 2, stallMs: 60_000, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 2), idleMs: 800 });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: last, idleMs: 500 });
    },
  },
  // "A read polled at its cadence through failures is polling": the agent retries a failed collection
  // once after about 1 s, then keeps its 10 s interval.
  {
    does: 'is a Telegraf-style agent (interval 10s, collection_jitter 2s) retrying a collection refused 500 once after 1-1.2 s, then keeping its interval, through two separate 500s',
    pass: [],
    async run(t) {
      const a = auth(t);
      const next = telegrafInterval(seeded(3116));
      const draw = seeded(3117);
      for (let i = 0; i < 9; i++) {
        if (i === 3 || i === 6) fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
        const r = await get(t, a, '/connections');
        if (r.status >= 500) {
          await sleeper(t)(1_000 + Math.round(draw() * 200));
          ok('again', await get(t, a, '/connections'));
        }
        await sleeper(t)(next());
      }
    },
  },
  // A capability check "changes nothing": retried without a key through a 500, on the RxJS schedule.
  {
    does: 'is an RxJS client retrying a capability check (a POST that changes nothing, no key) through two 500s',
    pass: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 2 });
      const body = { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' };
      const wait = rxjsDelay(seeded(3111));
      await loop(
        sleeper(t),
        () => api(t, a, 'POST', '/capabilities', { body }),
        (n) => wait(n),
        3,
      );
    },
  },
];
