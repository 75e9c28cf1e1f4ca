import { sleepOn } from '../harness.ts';
import { auth, CONNECTION, fault, READS, type Reply } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { lockstep } from './unnamed24-kit.ts';
import { warmSocket } from './unnamed25-socket.ts';
import { effectJittered } from './unnamed26-kit.ts';

/**
 * Round 26 probes of connections opened while the failed call was in flight (a speculative connect: the
 * client opens the socket for its next attempt as it sends the current one) and used the moment the
 * failure arrives. On the wire such a retry comes first on a connection accepted before the failed answer
 * left, as a call sent beside it would; the client nevertheless sent it after, and because of, the failure.
 */
export const PRECONNECT_MISBEHAVING_26: FaultyClient[] = [
  // "respect the wait time of the response": a 429 (Retry-After 2 s) retried at once on the socket opened
  // while the refused call was in flight, on two reads.
  {
    does: 'retries a read refused 429 (Retry-After 2 s) at once on a socket it pre-connected while the refused call was in flight, on two reads',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        const spare = await warmSocket(t);
        const first = await get(t, a, path);
        if (first.status !== 429) throw new Error(`answered ${first.status}`);
        ok(path, await spare.send(a, 'GET', path));
      }
    },
  },
  // "Idempotency keys reused on retries": a create refused 500 is sent again at once, under a new key, on
  // the socket pre-connected while it was in flight (the key is stamped per HTTP attempt).
  {
    does: 'sends a create refused 500 again at once under a new key, on a socket it pre-connected while the refused call was in flight',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Preconnect Pho' };
      const spare = await warmSocket(t);
      const first: Reply = await createWith(t, a, body, 'preconnect-try-0-5b7e');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      ok('again', await spare.send(a, 'POST', '/connections', { body, key: 'preconnect-try-1-5b7e' }));
    },
  },
  // "Clients retry with growing intervals": the same route spelt two ways by a client that rebuilds its URL
  // per attempt from a base with and without a trailing slash: three immediate retries of one read.
  {
    does: 'retries one read at once three times, the path spelt /connectors/ and /connectors in turn',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      const spellings = ['/connectors', '/connectors/'];
      let r = await get(t, a, '/connectors');
      for (let n = 0; n < 3 && r.status >= 500; n++) r = await get(t, a, spellings[(n + 1) % 2] ?? '/connectors');
      ok('read', r);
    },
  },
  // "request a new access token": a 401 for an expired token is retried with the same token every 2 s, four
  // times: each repeat comes within 5 s of the 401 before it, the last 8 s after the first.
  {
    does: 'sends a read answered 401 (its 30 s token expired) again with the same token every 2 s, four times',
    fails: ['auth.renewed-after-expiry', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 30);
      ok('fresh', await get(t, a, '/providers'));
      await sleepOn(t, 31_000);
      for (let i = 0; i < 5; i++) {
        const r = await get(t, a, '/providers');
        if (r.status !== 401) throw new Error(`answered ${r.status}`);
        if (i < 4) await sleepOn(t, 2_000);
      }
    },
  },
  // "Clients retry with growing intervals and slight random spread": four worker threads of one process (one
  // cached token) each build their Effect schedule's random service from the same seed, so their jittered
  // waits are the same draws and they retry in lockstep: spread within a worker, none across them.
  {
    does: 'runs four workers on one cached token whose jitter generators share one seed, retrying four reads in lockstep through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      for (const [route] of READS.slice(0, 4)) fault(t, { kind: 'internal', route, count: 2 });
      await lockstep(
        t,
        READS.slice(0, 4).map(([, path]) => ({ a, path, wait: effectJittered(seeded(2650)) })),
      );
    },
  },
];
