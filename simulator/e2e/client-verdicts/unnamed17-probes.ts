import { held, sleepOn, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, replayed } from './unnamed11-kit.ts';

/**
 * Round 17 probes: operations one process starts and another (a token of its own) finishes, as Spark
 * reruns and speculates tasks and Kafka Streams moves a partition on a rebalance. The well-behaved ones
 * keep the operation's key and its wait; the misbehaving ones drop one of them.
 */
export const WELL_BEHAVED_PROBES_17: UnnamedClient2[] = [
  // "the same key with the same content returns the same response again": Spark speculation launches a
  // copy of a slow task on a second executor (its own token) 2 s in; the copy keys its create like the
  // original (appId-partition-row), Spark keeps the first to finish and kills the other.
  {
    does: 'is a Spark job with speculation on: a slow create task gets a speculative copy on another executor 2 s in, under the same key; the slower one is killed',
    pass: [],
    async run(t) {
      const first = auth(t, undefined, 3_600);
      const second = auth(t, undefined, 3_600);
      const key = 'app-20261127090000-0002-p7-r4';
      const body = { ...CONNECTION, scopeLabel: 'Speculative Souvlaki' };
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 6_000, count: 1 });
      const before = held(t);
      const original = createWith(t, first, body, key);
      await untilHeld(t, before);
      await sleepOn(t, 2_000);
      const copy = await createWith(t, second, body, key);
      await sleepOn(t, 4_100);
      const r = await original;
      if (copy.status !== 200 && r.status !== 200) throw new Error(`answered ${copy.status} and ${r.status}`);
    },
  },
  // "A failed create sent again by a sibling is its retry, and must carry its key": a Kafka Streams
  // rebalance moves the partition of a record whose create got a 500 to another instance (its own token),
  // which processes the record again 20 s later under the offset key; the first instance goes on reading.
  {
    does: 'is a Kafka Streams app whose rebalance hands a record with a failed (500) create to another instance, which sends it again 20 s later under its offset key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      const b = auth(t, undefined, 3_600);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = 'venues-v1-5-000981';
      const body = { ...CONNECTION, scopeLabel: 'Rebalance Rostbiff' };
      if ((await createWith(t, a, body, key)).status !== 500) throw new Error('no 500');
      ok('b reads', await get(t, b, '/capabilities'));
      await sleepOn(t, 10_000);
      ok('a reads', await get(t, a, '/connectors'));
      await sleepOn(t, 10_000);
      replayed('b', await createWith(t, b, body, key));
      ok('a reads again', await get(t, a, '/providers'));
    },
  },
  // "Content ... canonical JSON": an OpenResty handler's first attempt is encoded by lua-cjson (which
  // writes "/" as "\/"), its connection drops after commit; a Python fallback worker sends the persisted
  // request again under its key with json.dumps (ensure_ascii: "é" as "\u00e9"): the same content.
  {
    does: 'is an OpenResty handler whose create (lua-cjson, "/" escaped) drops after commit and a Python worker resends it under its key with json.dumps (é as \\u00e9)',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const key = 'resty-8f14e45fceea167a5a36dedd4bea2543';
      const label = 'Café / Bar Lua';
      const cjson = JSON.stringify({ ...CONNECTION, scopeLabel: label }).replaceAll('/', '\\/');
      const python = JSON.stringify({ ...CONNECTION, scopeLabel: label }, null, 1)
        .replaceAll('é', '\\u00e9')
        .replaceAll('\n', '');
      if ((await api(t, a, 'POST', '/connections', { raw: cjson, key })).status !== 0) throw new Error('not dropped');
      await sleepOn(t, 1_200);
      replayed('python', await api(t, a, 'POST', '/connections', { raw: python, key }));
    },
  },
];

export const MISBEHAVING_PROBES_17: FaultyClient[] = [
  // "respect the wait time of the response": a Spark task whose create is refused 429 (Retry-After: 10)
  // fails, and Spark reruns it 1 s later on another executor (its own token), same key: the operation
  // did not wait what the service asked, whichever executor sent it.
  {
    does: 'is a Spark job whose create task is refused 429 (Retry-After: 10) and rerun by Spark on another executor 1 s later under the same key',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const first = auth(t, undefined, 3_600);
      const second = auth(t, undefined, 3_600);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 10, count: 1 });
      const key = 'app-20261127090500-0003-p1-r0';
      const body = { ...CONNECTION, scopeLabel: 'Rerun Rarebit' };
      if ((await createWith(t, first, body, key)).status !== 429) throw new Error('no 429');
      ok('catalog', await get(t, first, '/capabilities'));
      await sleepOn(t, 1_000);
      ok('rerun', await createWith(t, second, body, key));
      ok('catalog again', await get(t, first, '/connectors'));
    },
  },
  // "the same key with the same content": the Kafka Streams rebalance again, but the new instance keys
  // the record by its own instance id and the offset: the failed create goes again under another key.
  {
    does: 'is a Kafka Streams app whose new partition owner keys a record by its own instance id and offset, sending a failed (500) create again 20 s later under another key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      const b = auth(t, undefined, 3_600);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Instance Id Izakaya' };
      if ((await createWith(t, a, body, 'instance-a-venues-5-000981')).status !== 500) throw new Error('no 500');
      ok('b reads', await get(t, b, '/capabilities'));
      await sleepOn(t, 10_000);
      ok('a reads', await get(t, a, '/connectors'));
      await sleepOn(t, 10_000);
      ok('b', await createWith(t, b, body, 'instance-b-venues-5-000981'));
      ok('a reads again', await get(t, a, '/providers'));
    },
  },
  // "same key with different content yields idempotency_conflict": a dbt Python model builds the
  // capabilities from a Python set(); its retry runs in a new process (another PYTHONHASHSEED), so the list
  // comes in another order under the same key: other content, refused idempotency_conflict.
  {
    does: 'is a dbt Python model listing capabilities from a set(), its retry in a new process sending them in another order under the same key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = 'dbt-inv-3f2a9e51-model-venues-row-12';
      const body = { ...CONNECTION, scopeLabel: 'Hash Seed Hummus' };
      if ((await createWith(t, a, body, key)).status !== 500) throw new Error('no 500');
      await sleepOn(t, 1_700);
      const reordered = { ...body, capabilities: [...body.capabilities].reverse() };
      const r = await createWith(t, a, reordered, key);
      if (r.status !== 409) throw new Error(`answered ${r.status}`);
    },
  },
];

export const AMBIGUOUS_PROBES_17: AmbiguousClient8[] = [
  {
    does: 'is a Jenkins pipeline waiting for a connection id handed over by another system: GET /connections/{id} answered 404, polled every 10 s four times',
    why: '"not_found ... remedy: compare identifier and tenant header" and "retry only after rate_limited and internal": a 404 repeated unchanged is a repeat after a 4xx, yet waiting for an entry another system is about to create is polling; no read succeeded before, so the rules do not see a cadence',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 4; i++) {
        await get(t, a, '/connections/conn_handed_over_0042');
        await sleepOn(t, 10_000);
      }
    },
  },
];
