import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, replayed } from './unnamed11-kit.ts';
import { warmSocket } from './unnamed25-socket.ts';

/**
 * Round 25 probes of how a retry is told from a parallel call: a retry sent on a connection the pool opened
 * before the first call's answer (pre-connecting pools), a retry spelling the path another way (the service
 * routes /connections/ and /connections alike), a 429's long Retry-After cut short past the usual 120 s window.
 * Four misbehaving clients here get no fail today (wrong verdicts, reported; the rules are not changed here):
 * the rules take the first call on a connection accepted before P's answer for one sent beside P, and
 * compare paths as spelt.
 */
const THREE = [
  ['listProviders', '/providers'],
  ['listConnectors', '/connectors'],
  ['listCapabilities', '/capabilities'],
] as const;

export const PROBES_MORE_WELL_BEHAVED_25: UnnamedClient2[] = [
  // "the same key with the same content": a Node BFF's create (raw UTF-8) dropped past the commit is taken
  // over by a PHP worker (its own token) whose json_encode escapes non-ASCII as \uXXXX and "/" as "\/":
  // other bytes, the same content.
  {
    does: 'has a create from a Node BFF dropped past the commit re-sent under its key by a PHP worker whose json_encode escapes é, – and / (other bytes, same JSON)',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const raw = JSON.stringify({ ...CONNECTION, scopeLabel: 'Café Bar/Grill – Zürich' });
      const php = raw
        .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .replaceAll('/', '\\/');
      const key = 'bff-order-5521-conn';
      const first = await api(t, auth(t), 'POST', '/connections', { raw, key });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_500);
      replayed('php', await api(t, auth(t), 'POST', '/connections', { raw: php, key }));
    },
  },
  // "respect the wait time of the response": the pre-connecting pool again, but the retry waits the 429's
  // Retry-After of 2 s before it goes out on the warm connection.
  {
    does: 'keeps a pre-warmed spare connection and sends a 429’s retry on it after the whole Retry-After (2 s), on three reads',
    pass: [],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of THREE) {
        const spare = await warmSocket(t);
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        const first = await get(t, a, path);
        if (first.status !== 429) throw new Error(`answered ${first.status}`);
        await sleeper(t)(first.retryAfterMs);
        ok(path, await spare.send(a, 'GET', path));
        await sleeper(t)(5_000);
      }
    },
  },
];

export const PROBES_MORE_MISBEHAVING_25: FaultyClient[] = [
  // "respect the wait time of the response": a pool that pre-connects a spare socket sends the 429's retry
  // on it 50 ms after the answer, ignoring Retry-After 2; the spare was accepted before the 429 left.
  {
    does: 'keeps a pre-warmed spare connection and sends a 429’s retry on it 50 ms after the answer (Retry-After 2), on three reads',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of THREE) {
        const spare = await warmSocket(t);
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        const first = await get(t, a, path);
        if (first.status !== 429) throw new Error(`answered ${first.status}`);
        await sleeper(t)(50);
        ok(path, await spare.send(a, 'GET', path));
        await sleeper(t)(5_000);
      }
    },
  },
  // "Idempotency keys reused on retries": the pre-connecting pool's create is refused 500; the retry, under
  // a new key, goes out 300 ms later on the spare connection opened before the first answer.
  {
    does: 'keeps a pre-warmed spare connection and re-sends a create refused 500 on it 300 ms later under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const spare = await warmSocket(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Spare Socket Satay' };
      const first = await createWith(t, a, body, 'warm-first-5c2e9a10');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(300);
      ok('retry', await spare.send(a, 'POST', '/connections', { body, key: 'warm-second-7d4f1b22' }));
    },
  },
  // "respect the wait time of the response": the first call built by one URL helper (/providers), the retry
  // by another that appends a slash (/providers/), 100 ms after a 429 with Retry-After 2, on three reads.
  {
    does: 'retries a 429 (Retry-After 2) 100 ms later with the path spelt with a trailing slash by another URL helper, on three reads',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of THREE) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        const first = await get(t, a, path);
        if (first.status !== 429) throw new Error(`answered ${first.status}`);
        await sleeper(t)(100);
        ok(path, await get(t, a, `${path}/`));
        await sleeper(t)(5_000);
      }
    },
  },
  // "Idempotency keys reused on retries": a create refused 500 on POST /connections is sent again 800 ms later
  // by another helper, which writes POST /connections/ (the same route to the service) and mints a new key.
  {
    does: 'retries a create refused 500 after 800 ms at POST /connections/ (trailing slash, the same route) under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Slash Samosa' };
      const first = await api(t, a, 'POST', '/connections', { body, key: 'slash-first-1a2b3c4d' });
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(800);
      ok('retry', await api(t, a, 'POST', '/connections/', { body, key: 'slash-second-5e6f7a8b' }));
    },
  },
  // "respect the wait time of the response": a 429 with Retry-After 200 s, retried after 150 s (a client
  // capping every wait at 150 s), past the 120 s a retry is usually looked for in but inside the server's wait.
  {
    does: 'caps every wait at 150 s and retries a 429 whose Retry-After is 200 s after 150 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 200, count: 1 });
      const first = await get(t, a, '/connections');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(Math.min(first.retryAfterMs, 150_000));
      ok('read', await get(t, a, '/connections'));
    },
  },
];
