import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { ponyTimer } from './unnamed37-kit.ts';

/**
 * Round 37, more well-behaved clients: a V stream reader resuming by `?cursor=`, a PureScript `Aff` reader
 * waiting out a 429 on the stream, a Haxe poller whose retries sit between its polls, Wolverine's durable
 * inbox recovering a dead node's envelope on another node, a V client renewing after a 401, a Pony client
 * whose retry is the same content written with other JSON escapes and key order.
 */
export const WELL_BEHAVED_37_MORE: UnnamedClient2[] = [
  // "resumes without gaps by sending ... the query parameter cursor (last number read)": twice cut.
  {
    does: 'is a V stream reader that reconnects with ?cursor=<last id read> after each of two cuts',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const first = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 2) });
      await sleeper(t)(1_000);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const second = await readStream(t, a, {
        cursor: first.at(-1) ?? 0,
        asQuery: true,
        onOpen: () => publish(t, a.tenant, 2),
      });
      await sleeper(t)(1_000);
      const last = second.at(-1) ?? 0;
      await readStream(t, a, { cursor: last, asQuery: true, idleMs: 400, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // "respect the wait time of the response": the Aff reader's stream call is refused 429 (Retry-After 2);
  // it delays that long (not the SSE retry: field) before it opens again.
  {
    does: 'is a PureScript Aff stream reader whose stream call is refused 429 (Retry-After 2) and which delays (Milliseconds retryAfter) before opening it again',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: '/api/public/v1/stream', retryAfterSeconds: 2, count: 1 });
      let wait = 0;
      await readStream(t, a, { idleMs: 400, onRefused: (_s, ms) => (wait = ms) });
      if (wait !== 2_000) throw new Error(`no 429: ${wait}`);
      await sleeper(t)(wait);
      await readStream(t, a, { idleMs: 400, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // "A read polled at its cadence ... is polling" and "growing intervals": a Haxe poller reads every 10 s;
  // three of its polls meet two 500s each, retried with haxe.Timer.delay(500 << n + Std.random(250)).
  {
    does: 'is a Haxe poller reading /connections every 10 s whose three failed polls (two 500s each) are retried with haxe.Timer.delay((500 << n) + Std.random(250)) before the cadence goes on',
    pass: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const schedule = ponyTimer(seeded(3709));
      for (let poll = 0; poll < 16; poll++) {
        if (poll % 5 === 2) fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
        ok('poll', await loop(sleeper(t), () => get(t, a, '/connections'), schedule, 3));
        await sleeper(t)(10_000);
      }
    },
  },
  // "A sibling process sending a dead pod's failed create again is a retry of it, and must carry its key":
  // Wolverine's durable inbox hands node A's envelope (its id the key) to node B after A died.
  {
    does: 'is Wolverine’s durable inbox: node A’s create (key: the envelope id) is answered 500 and A dies; node B (its own token, reading before) recovers the envelope 30 s later and sends it with its key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const nodeA = auth(t);
      const nodeB = auth(t);
      ok('b reads', await get(t, nodeB, '/providers'));
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Wolverine Wontons' };
      const failed = await createWith(t, nodeA, body, 'env-0193a5c2-7f11');
      if (failed.status !== 500) throw new Error(`answered ${failed.status}`);
      await sleeper(t)(30_000);
      ok('recovered', await createWith(t, nodeB, body, 'env-0193a5c2-7f11'));
    },
  },
  // "unauthorized ... remedy: request a new access token": the V client's token expires; its 401 makes it
  // take a new one and send the read once more.
  {
    does: 'is a V client whose 60 s token expires between reads: the 401 makes it take a new token and send the read again at once',
    pass: ['auth.renewed-after-expiry'],
    async run(t) {
      const old = auth(t, undefined, 60);
      ok('read', await get(t, old, '/connectors'));
      await sleeper(t)(90_000);
      const refused = await get(t, old, '/connectors');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      ok('again', await get(t, auth(t, undefined, 600), '/connectors'));
    },
  },
  // "content as the service compares it": the first attempt is written by the actor's JSON printer (UTF-8),
  // the retry is the request persisted in its outbox, printed again with \u escapes and sorted keys.
  {
    does: 'is a Pony client whose retry (after a 500) sends the create from its outbox, printed again with \\u00e9 escapes and sorted keys, under the same key',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Café Crème' };
      const sorted = Object.fromEntries(Object.entries(body).sort(([x], [y]) => x.localeCompare(y)));
      const escaped = JSON.stringify(sorted).replace(
        /[\u0080-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
      const first = await api(t, a, 'POST', '/connections', { raw: JSON.stringify(body), key: 'pony-outbox-1' });
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(600);
      ok('retry', await api(t, a, 'POST', '/connections', { raw: escaped, key: 'pony-outbox-1' }));
    },
  },
];
