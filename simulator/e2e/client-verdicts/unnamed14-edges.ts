import { held, sleepOn, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { createWith, replayed } from './unnamed11-kit.ts';

/**
 * Round 14 edges of "the same content": a retry serialised by another encoder (non-ASCII escaped), and a
 * retry whose list was rebuilt from a hash set (another order: other content to the service).
 */
const CAFE = { ...CONNECTION, scopeLabel: 'Café Zürich Bäckerei' };

/** JSON with every non-ASCII character escaped (Perl JSON::PP->ascii, Python json.dumps default). */
const asciiJson = (v: unknown) =>
  JSON.stringify(v).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const WELL_BEHAVED_EDGES_14: UnnamedClient2[] = [
  // "the same key with the same content returns the same response again": a Perl LWP client whose
  // first attempt is encoded by JSON::PP->utf8 and whose retry path uses ->ascii (\u00e9 for é): the same
  // JSON value, so the same content.
  {
    does: 'is a Perl LWP client whose retry encodes the same body with JSON::PP->ascii (non-ASCII as \\u escapes) under its key, after a committed 500',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = 'perl-lwp-create-cafe-0001';
      const first = await api(t, a, 'POST', '/connections', { raw: JSON.stringify(CAFE), key });
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_100);
      replayed('retry', await api(t, a, 'POST', '/connections', { raw: asciiJson(CAFE), key }));
    },
  },
];

export const MISBEHAVING_EDGES_14: FaultyClient[] = [
  // "The same key with different content yields idempotency_conflict": a Clojure client whose retry
  // rebuilds the capabilities from a hash set (#{...}), so the array comes in another order.
  {
    does: 'is a Clojure client whose retry rebuilds the capabilities list from a hash set (another order) under the same key, after a committed 500',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = 'clj-create-set-order-0001';
      const body = { ...CONNECTION, scopeLabel: 'Hash Set Hof', capabilities: ['orders.read', 'payments.refund'] };
      const first = await api(t, a, 'POST', '/connections', { body, key });
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      const again = await api(t, a, 'POST', '/connections', {
        body: { ...body, capabilities: ['payments.refund', 'orders.read'] },
        key,
      });
      if (again.status !== 409) throw new Error(`answered ${again.status}`);
    },
  },
];

/**
 * A consumer that stops reading while it processes message 3 (a slow handler), so message 4, published
 * 2 s later, waits unread in its socket; it crashes 2 s after that and its successor resumes from the 3
 * on disk (the last number it read).
 */
export async function slowHandlerCrash(t: Parameters<FaultyClient['run']>[0]): Promise<number[]> {
  const a = auth(t);
  const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream`, {
    headers: { authorization: `Bearer ${a.token}`, 'x-service-tenant': a.tenant, 'service-version': '2026-07-01' },
  });
  const reader = res.body?.getReader();
  if (!reader) throw new Error(`stream answered ${res.status}`);
  publish(t, a.tenant, 3);
  const ids: number[] = [];
  let text = '';
  const decoder = new TextDecoder();
  while (ids.length < 3) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    ids.splice(0, ids.length, ...[...text.matchAll(/^id: (\d+)/gm)].map((m) => Number(m[1])));
  }
  const onDisk = ids[2] ?? 0;
  await sleepOn(t, 2_000);
  publish(t, a.tenant, 1);
  // Real time, a transport matter: message 4 reaches the client's socket (unread) before the crash.
  await new Promise((resolve) => setTimeout(resolve, 200));
  await sleepOn(t, 2_000);
  await reader.cancel().catch(() => undefined);
  await sleepOn(t, 5_000);
  return readStream(t, auth(t), { cursor: onDisk, idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
}

/** Pinned with today's verdict (see the comment inside). */
export const AMBIGUOUS_EDGES_14: AmbiguousClient8[] = [
  // "Modifying calls are repeat-safe through idempotency keys": a hand-rolled hedge, Promise.race of the
  // slow create and a copy under a new key sent 2 s later, with no abort: both run to completion (two
  // connections), the loser's answer is ignored. The rules call a copy under a new key a hedge only
  // when one of the two is abandoned, so this passes: pinned as ambiguous with today's verdict.
  {
    does: 'hedges a slow create with Promise.race and a copy under a new key after 2 s, never aborting the loser (both are created)',
    why: 'two creations with equal content under two keys, sent 2 s apart with neither abandoned, are what a client creating two like connections at once sends: the rules cannot tell a hedge whose loser runs on from two operations',
    judged: [],
    async run(t) {
      const a = auth(t);
      const random = seeded(1497);
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 5_000, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Promise Race Ramen' };
      const before = held(t);
      const first = createWith(t, a, body, uuid(random));
      await untilHeld(t, before);
      await sleepOn(t, 2_000);
      const hedge = createWith(t, a, body, uuid(random));
      const winner = await Promise.race([first, hedge]);
      if (winner.status !== 200) throw new Error(`winner answered ${winner.status}`);
      await sleepOn(t, 3_000);
      const both = await Promise.all([first, hedge]);
      if (both.some((r) => r.status !== 200)) throw new Error(`answered ${both.map((r) => r.status)}`);
    },
  },
];
