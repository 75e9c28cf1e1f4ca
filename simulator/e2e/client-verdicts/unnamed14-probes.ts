import { held, sleepOn, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { alternate, fleet, type Sleep } from './unnamed5-fleet.ts';
import { abortable, sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { now } from './unnamed10-kit.ts';
import { createWith, replayed } from './unnamed11-kit.ts';

/**
 * Round 14 probes at the rules' edges: hedges at the second address, a create resent with a new token
 * after its token expired, a poller that keeps its cadence through a 429, a stream handed over by a
 * rolling deploy.
 */
export const WELL_BEHAVED_PROBES_14: UnnamedClient2[] = [
  // "The same interface is also offered under a second main-domain address": a hedged read whose copy
  // goes to the second address after 300 ms; the slower first copy is cancelled.
  {
    does: 'hedges a slow GET /connectors at the second address after 300 ms and cancels the first copy',
    pass: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'listConnectors', latencyMs: 5_000, count: 1 });
      const before = held(t);
      const first = abortable(t, a, 'GET', '/connectors');
      await untilHeld(t, before);
      await sleepOn(t, 300);
      ok('hedge', await abortable(alternate(t), a, 'GET', '/connectors').reply);
      first.abort();
      await first.reply;
      await sleepOn(t, 100);
    },
  },
  // "the same key with the same content returns the same response again": a held create hedged under
  // its own key at the second address after 1 s; the first copy is cancelled.
  {
    does: 'hedges a held create under the same key at the second address after 1 s and cancels the first copy',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 20_000, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Second Address Sushi' };
      const key = `hedge-${uuid(seeded(1492))}`;
      const ctrl = new AbortController();
      const before = held(t);
      const slow = t
        .fetch(`${t.baseUrl}/api/public/v1/connections`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${a.token}`,
            'x-service-tenant': a.tenant,
            'service-version': '2026-07-01',
            'content-type': 'application/json',
            'idempotency-key': key,
          },
          body: JSON.stringify(body),
          signal: ctrl.signal,
        })
        .catch(() => undefined);
      await untilHeld(t, before);
      await sleepOn(t, 1_000);
      replayed('hedge', await createWith(alternate(t), a, body, key));
      ctrl.abort();
      await slow;
      await sleepOn(t, 100);
    },
  },
  // "unauthorized (401) ... token expired ... request a new access token": a long-lived Zeebe worker whose
  // 60 s token expires during a job; the create is answered 401, the worker renews and sends the create
  // again with the same key and content (the 401 created nothing).
  {
    does: 'is a Zeebe worker whose 60 s token expires mid-job: the create is refused 401, it renews and sends the create again under the same key',
    pass: [],
    async run(t) {
      let a = auth(t, undefined, 60);
      const sleep = sleeper(t);
      ok('warm-up', await get(t, a, '/connectors'));
      await sleep(61_000);
      const body = { ...CONNECTION, scopeLabel: 'Expired Token Trattoria' };
      const key = 'zeebe-job-6755399441055745';
      const refused = await createWith(t, a, body, key);
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      a = auth(t, undefined, 60);
      ok('create', await createWith(t, a, body, key));
    },
  },
  // "Tokens are short-lived and are renewed": two pods, each renewing its own 600 s token at 80 % of
  // its life, reading every 20 s, the second started 130 s after the first: their renewals interleave.
  {
    does: 'is two pods each renewing its own 600 s token at 80 % of its lifetime, reading every 20 s for 25 minutes, started 130 s apart',
    pass: ['auth.token-reused'],
    async run(t) {
      const podReads = (paths: string[]) => async (sleep: Sleep) => {
        let a = auth(t, undefined, 600);
        let issued = now(t);
        for (let i = 0; i < 75; i++) {
          if (now(t) - issued >= 480_000) {
            a = auth(t, undefined, 600);
            issued = now(t);
          }
          ok('read', await get(t, a, paths[i % paths.length] ?? '/providers'));
          await sleep(20_000);
        }
      };
      await fleet(
        t,
        [podReads(['/providers', '/connectors']), podReads(['/capabilities', '/connections'])],
        [0, 130_000],
      );
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": worker A gives up on a held create after
  // 5 s (its own timeout) and fails the job; the job's timeout hands it to worker B (own token) at 10 s,
  // which sends it with the job key.
  {
    does: 'is a Zeebe worker that gives up on a held create after 5 s; the job goes to worker B (own token) 10 s later, which sends the create with the same job key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const body = { ...CONNECTION, scopeLabel: 'Handed-over Hummus' };
      const key = 'zeebe-job-9007199254740993';
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 30_000, count: 1 });
      const first = await api(t, auth(t), 'POST', '/connections', { body, key, timeoutMs: 5_000 });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(10_000);
      replayed('worker B', await createWith(t, auth(t), body, key));
    },
  },
];

export const MISBEHAVING_PROBES_14: FaultyClient[] = [
  // "a 429 in it still must be waited out" (rules README): a k6 script keeping its sleep(1) cadence
  // after a 429 with Retry-After: 3.
  {
    does: 'is a k6 script polling GET /connections with sleep(1) that keeps its cadence after a 429 with Retry-After: 3',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 12; i++) {
        if (i === 6) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 3, count: 1 });
        await get(t, a, '/connections');
        await sleeper(t)(1_000);
      }
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a create hedged after 2 s under a new key;
  // the first copy answers at 2.5 s and the hedge (still held) is the one cancelled: both may be created.
  {
    does: 'hedges a slow create after 2 s under a new key, and cancels the hedge when the first copy answers at 2.5 s',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1495);
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 2_500, count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Cancelled Hedge Canteen' };
      const before = held(t);
      const first = createWith(t, a, body, uuid(random));
      await untilHeld(t, before);
      await sleepOn(t, 2_000);
      const ctrl = new AbortController();
      const hedge = t
        .fetch(`${t.baseUrl}/api/public/v1/connections`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${a.token}`,
            'x-service-tenant': a.tenant,
            'service-version': '2026-07-01',
            'content-type': 'application/json',
            'idempotency-key': uuid(random),
          },
          body: JSON.stringify(body),
          signal: ctrl.signal,
        })
        .catch(() => undefined);
      await untilHeld(t, before + 1);
      await sleepOn(t, 500);
      ok('first', await first);
      ctrl.abort();
      await hedge;
      await sleepOn(t, 100);
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a Postman collection whose
  // Service-Version is set on the GET requests' headers only; its POST (a capability check) has none.
  {
    does: 'is a Postman collection that sets Service-Version on its GET requests only, so its capability checks carry none',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      ok('list', await get(t, a, '/connectors'));
      await sleep(200);
      const body = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
      ok('check', await api(t, a, 'POST', '/capabilities', { body, version: null }));
    },
  },
];

export const AMBIGUOUS_PROBES_14: AmbiguousClient8[] = [
  {
    does: 'is a Newman collection run again by the next CI pipeline 30 minutes later with the same hard-coded Idempotency-Key and body (the create is replayed, nothing new is created)',
    why: '"use a new key for each new operation": a second pipeline run is a new operation, but 30 minutes after a success the rules look for no repeat (their 120 s window), and a late retry of the same operation would look the same',
    judged: [],
    async run(t) {
      const body = { ...CONNECTION, scopeLabel: 'Pipeline Pinned Key Pub' };
      const key = 'newman-collection-create-0001';
      ok('run 1', await createWith(t, auth(t, undefined, 3_600), body, key));
      await sleeper(t)(30 * 60_000);
      replayed('run 2', await createWith(t, auth(t, undefined, 3_600), body, key));
    },
  },
  {
    does: 'is a rolling deploy: the new pod opens the stream with the id on the shared disk (3) while the old pod still reads 4 and 5, then the old pod closes',
    why: '"Every message carries a consecutive number and arrives exactly once ... resumes without gaps": the new process resumes from what was on disk when it started, so 4 and 5 reach the client twice; a stream opened beside another resumes nothing to the rules',
    judged: [],
    async run(t) {
      const oldPod = auth(t);
      const newPod = auth(t);
      const ids: number[] = [];
      const reading = readStream(t, oldPod, { count: 5, idleMs: 1_500, onOpen: () => publish(t, oldPod.tenant, 3) });
      // Real time, a transport matter: the old pod's stream is open and reading before the new pod starts.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const onDisk = 3;
      const second = readStream(t, newPod, {
        cursor: onDisk,
        idleMs: 1_500,
        onOpen: () => publish(t, newPod.tenant, 2),
      });
      ids.push(...(await reading));
      const resumed = await second;
      if (resumed[0] !== onDisk + 1) throw new Error(`new pod read ${resumed}, old pod ${ids}`);
    },
  },
];
